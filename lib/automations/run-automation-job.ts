import { newId } from "@/lib/ids";
import { getProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { runProjectFlow } from "@/lib/runs/run-project-flow";
import { trackAfterResponse } from "@/lib/http/after-response";
import { EXECUTIONS_COLLECTION } from "@/lib/flow/execution-log/execution-log-entry";
import type { RecordStore } from "@/lib/records/record-store";
import type { AttemptOutcome, AutomationAttempt, AutomationRunnerOptions } from "./queue/automation-attempt";
import type { AutomationJob } from "./queue/automation-job";

/**
 * A run may start up to this long after an edit made on another instance with the definition from
 * before it; at hundreds of runs a second, one generation read per job would be a Redis round trip each.
 */
const GENERATION_MAX_AGE_MS = 250;

/**
 * Runs one attempt of a queued automation run, on every queue backend: the automation is read from
 * the project runtime (an edit made while the job waited applies; a deleted automation, or a
 * disabled one started by an event, is skipped), the flow runs with the project's services and the
 * flow budget, and its log is written to the customer database before this resolves, naming the
 * trigger and the attempt. A failed run resolves "failed"; the queue decides whether to retry.
 */
export async function runAutomationJob(
  job: AutomationJob,
  attempt: AutomationAttempt,
  signal?: AbortSignal,
  options: AutomationRunnerOptions = { opensBuiltInDatabases: true },
): Promise<AttemptOutcome> {
  const runtime = await getProjectRuntime(job.projectId, { generationMaxAgeMs: GENERATION_MAX_AGE_MS });
  if (!runtime) return { status: "skipped", reason: "the project no longer exists" };
  if (runtime.store.kind === "pglite" && !options.opensBuiltInDatabases) return { status: "deferred" };
  const automation = runtime.automations.byId.get(job.automationId);
  if (!automation) return { status: "skipped", reason: "the automation no longer exists" };
  if (!automation.definition.enabled && job.triggerType !== "manual") return { status: "skipped", reason: "the automation is disabled" };

  if (attempt.afterInterruption || attempt.mayHaveRun || job.redelivered) {
    const logged = await loggedOutcome(runtime.store, job.id, attempt.number);
    if (logged) return logged;
  }

  // The first attempt logs under the id the trigger was answered with; a re-run gets its own entry.
  const firstRun = attempt.number === 1 && !attempt.afterInterruption;
  const executionId = firstRun ? job.executionId : newId("execution");
  const { run } = await runProjectFlow({
    project: runtime.project,
    schemas: runtime.schemas,
    store: runtime.store,
    steps: automation.steps,
    context: { body: {}, query: {}, user: null, trigger: job.trigger },
    source: {
      type: "automation",
      automationId: job.automationId,
      trigger: job.triggerType,
      attempt: attempt.number,
      retryOf: firstRun ? null : job.executionId,
      ...(attempt.afterInterruption ? { afterInterruption: true } : {}),
      jobId: job.id,
    },
    executionId,
    request: { query: null, body: job.trigger },
    log: "await",
    onStepsDone: attempt.stepsDone,
    signal,
    // Webhook deliveries outlive the run; a worker's shutdown waits for them.
    waitUntil: trackAfterResponse,
  });
  if (run === null || run.outcome === "failed") {
    return { status: "failed", executionId, error: run?.error?.message ?? "the stored flow is invalid" };
  }
  return { status: run.outcome, executionId };
}

/**
 * What this attempt of the job logged, when it ran already: a worker that died after the log was
 * written (or a batch started again) does not run it twice. Only on those rare paths: the log has
 * no index on jobId, and this is one query.
 */
async function loggedOutcome(store: RecordStore, jobId: string, attemptNumber: number): Promise<AttemptOutcome | null> {
  const entries = await store.find(EXECUTIONS_COLLECTION, { where: [{ field: "jobId", op: "eq", value: jobId }], limit: 20 });
  const entry = entries.find((candidate) => candidate.attempt === attemptNumber);
  if (!entry) return null;
  if (entry.outcome === "failed") return { status: "failed", executionId: entry.id, error: typeof entry.error === "string" ? entry.error : "the run failed" };
  return { status: entry.outcome === "stopped" ? "stopped" : "completed", executionId: entry.id };
}
