import type { ProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { FORM_SUBMISSIONS_COLLECTION, type FormFields } from "./form-submission";
import { queueSubmissionRun } from "./queue-submission-run";

const BATCH = 200;
// A submission is queued within its own request; one still unqueued after this was left behind
// (queueing one still in flight twice is harmless: its job id is known).
const SETTLE_MS = 5_000;

/**
 * Queues the runs of a project's stored submissions that were never queued (the queue was down, or
 * the process stopped between storing and queueing). Answers how many are still waiting, and
 * whether the queue refused one (the caller then has the project drained again); throws when the
 * customer database cannot be read.
 */
export async function requeueUnqueuedSubmissions(runtime: ProjectRuntime): Promise<{ waiting: number; queueRefused: boolean }> {
  let queueRefused = false;
  const entries = await runtime.store.find(FORM_SUBMISSIONS_COLLECTION, {
    where: [
      { field: "queued", op: "eq", value: false },
      { field: "submittedAt", op: "lt", value: new Date(Date.now() - SETTLE_MS).toISOString() },
    ],
    limit: BATCH,
  });
  for (const entry of entries) {
    const automation = runtime.automations.byId.get(String(entry.automationId));
    // A deleted automation's submissions stay stored, with nothing to run.
    if (!automation) continue;
    const queued = await queueSubmissionRun({
      projectId: runtime.project.id,
      automationId: automation.definition.id,
      retry: automation.definition.retry,
      store: runtime.store,
      submission: { id: entry.id, form: String(entry.form), fields: entry.fields as FormFields, submittedAt: String(entry.submittedAt), ip: String(entry.ip) },
    });
    if (!queued) queueRefused = true;
  }
  const waiting = await runtime.store.count(FORM_SUBMISSIONS_COLLECTION, { where: [{ field: "queued", op: "eq", value: false }] });
  return { waiting, queueRefused };
}
