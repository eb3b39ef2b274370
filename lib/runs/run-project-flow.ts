import { newId } from "@/lib/ids";
import type { FlowContextInput } from "@/lib/flow/engine/context";
import { runFlow, type FlowRunResult } from "@/lib/flow/engine/run-flow";
import type { FlowStep } from "@/lib/flow/flow-definition";
import type { ExecutionSource } from "@/lib/flow/execution-log/execution-log-entry";
import type { SentResponse } from "@/lib/flow/execution-log/preview-response";
import { writeExecutionLog } from "@/lib/flow/execution-log/write-execution-log";
import { createProjectFlowServices } from "@/lib/flow-services/create-project-flow-services";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";

/** The log's error for a run whose stored flow no longer validates, unless the caller names one. */
export const INVALID_FLOW_ERROR = "the stored flow is invalid; open and save it again";

/** What the execution log stores of the caller's answer. */
export interface RunLogFields {
  /** The HTTP status answered; null when nobody waits for an answer (automations). */
  httpStatus: number | null;
  /** Why the run failed outside its steps; null stores the run's own error. */
  error: string | null;
  /** The answer sent (endpoint calls and test runs); the log keeps a redacted, capped preview. */
  response?: SentResponse;
}

export interface RunProjectFlowOptions<Answer extends RunLogFields = RunLogFields> {
  project: ProjectRow;
  /** The project's schema definitions, for the records service. */
  schemas: readonly SchemaDefinition[];
  /** The project's customer database: the records service and the execution log use it. */
  store: RecordStore;
  /** The parsed flow; null when the stored flow is invalid (the run is logged as failed, nothing runs). */
  steps: readonly FlowStep[] | null;
  context: FlowContextInput;
  source: ExecutionSource;
  /** Default: a new execution id. */
  executionId?: string;
  /**
   * What the log shows of the call: endpoints and test runs pass their query and body. Default: for
   * an automation `{ query: null, body: context.trigger }` (its trigger payload), otherwise none.
   */
  request?: { query: unknown; body: unknown } | null;
  budgetMs?: number;
  signal?: AbortSignal;
  /** Keeps work that outlives the run alive: webhook deliveries and, in "after" mode, the log write. */
  waitUntil: (task: Promise<unknown>) => void;
  /**
   * "after": the log is queued through waitUntil, for answers that must not wait (the endpoint hot
   * path). "await": the log is stored before this resolves, so a retry or a listing sees it.
   */
  log: "after" | "await";
  /** Called when the steps are over, before the log is written (automations free their run slot). */
  onStepsDone?: () => void;
  /**
   * The caller's answer for the run, computed before the log is written; its status and error are
   * logged. Omitted when nobody waits for an answer (automations): status null, the run's own error.
   */
  answer?: (run: FlowRunResult | null, executionId: string) => Answer;
}

/** The end user's id as the log keeps it: text, or none (public and API-key calls have no user). */
function endUserIdOf(user: FlowContextInput["user"]): string | null {
  const id = user?.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : null;
}

function loggedRequest(request: RunProjectFlowOptions["request"], source: ExecutionSource, context: FlowContextInput) {
  if (request === undefined) return source.type === "automation" ? { query: null, body: context.trigger } : null;
  return request && { ...request, userId: endUserIdOf(context.user) };
}

const NO_CALLER: RunLogFields = Object.freeze({ httpStatus: null, error: null });

export interface ProjectFlowRun<Answer extends RunLogFields = RunLogFields> {
  executionId: string;
  /** Null when the stored flow is invalid. */
  run: FlowRunResult | null;
  answer: Answer;
}

/**
 * Runs a project's flow and logs it: the one run-then-log sequence of endpoint calls, test runs and
 * automations. Steps reach the project's database, mail, templates and secrets through
 * createProjectFlowServices. It throws only when the engine itself does; step failures are results.
 */
export async function runProjectFlow<Answer extends RunLogFields = RunLogFields>(options: RunProjectFlowOptions<Answer>): Promise<ProjectFlowRun<Answer>> {
  const { project, store, source, context } = options;
  const executionId = options.executionId ?? newId("execution");
  const startedAt = new Date();
  const run = options.steps
    ? await runFlow({
        steps: options.steps,
        context,
        services: createProjectFlowServices({ project, schemas: options.schemas, store, waitUntil: options.waitUntil }),
        budgetMs: options.budgetMs,
        signal: options.signal,
      })
    : null;
  options.onStepsDone?.();
  const answer = options.answer ? options.answer(run, executionId) : (NO_CALLER as Answer);
  const written = writeExecutionLog({
    store,
    projectId: project.id,
    retentionDays: project.logRetentionDays,
    executionId,
    source,
    startedAt,
    run,
    httpStatus: answer.httpStatus,
    error: answer.error ?? (run ? null : INVALID_FLOW_ERROR),
    request: loggedRequest(options.request, source, context),
    response: answer.response ?? null,
  });
  if (options.log === "await") await written;
  else options.waitUntil(written);
  return { executionId, run, answer };
}
