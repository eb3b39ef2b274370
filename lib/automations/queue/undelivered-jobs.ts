import { log } from "@/lib/log";
import { getProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import type { RecordStore } from "@/lib/records/record-store";
import type { AutomationJob } from "./automation-job";
import { requeueUnqueuedSubmissions } from "@/lib/forms/requeue-unqueued-submissions";
import { enqueueAutomationJobs } from "./enqueue-automation-jobs";

/**
 * Runs the queue could not take (Redis unreachable) wait in the project's customer database — record
 * events in `_automation_outbox`, form submissions as stored submissions marked `queued: false` —
 * and are queued again by this process every few seconds until the queue takes them, and by every
 * worker at start-up (start-automation-work.ts). Their job ids are their idempotency keys, so a run
 * queued twice (the queue took it although add() timed out) runs once.
 */
export const OUTBOX_COLLECTION = "_automation_outbox";
const DRAIN_INTERVAL_MS = 5_000;
const DRAIN_BATCH = 500;

const pendingProjects = new Set<string>();
let drainTimer: NodeJS.Timeout | null = null;

function scheduleDrain(): void {
  if (drainTimer) return;
  drainTimer = setTimeout(() => {
    drainTimer = null;
    void drainPendingProjects();
  }, DRAIN_INTERVAL_MS);
  drainTimer.unref();
}

async function drainPendingProjects(): Promise<void> {
  for (const projectId of [...pendingProjects]) {
    const left = await drainUndeliveredJobs(projectId).catch(() => 1);
    if (left === 0) pendingProjects.delete(projectId);
  }
  if (pendingProjects.size > 0) scheduleDrain();
}

/** Has this process retry the project's undelivered runs every few seconds until none are left. */
export function rememberUndeliveredProject(projectId: string): void {
  pendingProjects.add(projectId);
  scheduleDrain();
}

/** Keeps jobs for later; never throws (a loss is reported as an error, it is never silent). */
export async function storeUndeliveredJobs(store: RecordStore, projectId: string, jobs: readonly AutomationJob[]): Promise<void> {
  try {
    await store.insertMany(OUTBOX_COLLECTION, jobs.map((job) => ({ id: job.id, job: job as unknown as Record<string, unknown> })));
    rememberUndeliveredProject(projectId);
  } catch (error) {
    log.error("automation runs lost: neither the queue nor the outbox could take them", { projectId, jobIds: jobs.map((job) => job.id), error });
  }
}

/**
 * Queues a project's waiting outbox entries (removing the ones the queue took) and its unqueued form
 * submissions. Answers how many are still waiting (0 when none); throws when the queue or the
 * database is down.
 */
export async function drainUndeliveredJobs(projectId: string): Promise<number> {
  const runtime = await getProjectRuntime(projectId);
  if (!runtime) return 0;
  for (;;) {
    const entries = await runtime.store.find(OUTBOX_COLLECTION, { limit: DRAIN_BATCH });
    if (entries.length === 0) break;
    await enqueueAutomationJobs(entries.map((entry) => entry.job as AutomationJob));
    await runtime.store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "in", value: entries.map((entry) => entry.id) }]);
    if (entries.length < DRAIN_BATCH) break;
  }
  return requeueUnqueuedSubmissions(runtime);
}
