import { log } from "@/lib/log";
import { getProjectRuntime, recordTriggerKey } from "@/lib/endpoints/invoke/project-runtime";
import { requeueUnqueuedSubmissions } from "@/lib/forms/requeue-unqueued-submissions";
import { presentRecord, type PublicRecord } from "@/lib/records-service/present-record";
import type { StoredRecord } from "@/lib/records/record-store";
import { OUTBOX_COLLECTION, type OutboxEvent } from "../record-event-outbox";
import { recordTriggerJobs } from "../record-trigger-jobs";
import { enqueueAutomationJobs } from "./enqueue-automation-jobs";

/**
 * Runs that wait in the project's customer database to be queued — record events in
 * `_automation_outbox` (written with the record: record-event-outbox.ts), form submissions marked
 * `queued: false` — are queued by this process every few seconds after a queue failure until the
 * queue takes them, and by every worker at start-up (start-automation-work.ts), which covers a
 * process that died between a write and its queueing. Job ids derive from the event or submission,
 * so a run queued twice (the queue took it although add() timed out) runs once.
 */
const DRAIN_INTERVAL_MS = 5_000;
const DRAIN_BATCH = 500;
// An entry is normally removed right after its write; one older than this was left behind.
const SETTLE_MS = 5_000;

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
    const left = await drainUndeliveredJobs(projectId, { settled: false }).catch(() => 1);
    if (left === 0) pendingProjects.delete(projectId);
  }
  if (pendingProjects.size > 0) scheduleDrain();
}

/** Has this process queue the project's waiting runs every few seconds until none are left. */
export function rememberUndeliveredProject(projectId: string): void {
  pendingProjects.add(projectId);
  scheduleDrain();
}

/**
 * Queues a project's waiting outbox entries (removing them once queued) and its unqueued form
 * submissions. With `settled` (start-up), only entries older than a few seconds, so writes still
 * in flight on other instances are left to them (queueing one twice would be harmless). Answers how
 * many are still waiting; throws when the queue or the database is down.
 */
export async function drainUndeliveredJobs(projectId: string, options: { settled: boolean } = { settled: true }): Promise<number> {
  const runtime = await getProjectRuntime(projectId);
  if (!runtime) return 0;
  const where = options.settled ? [{ field: "createdAt", op: "lt" as const, value: new Date(Date.now() - SETTLE_MS).toISOString() }] : [];
  for (;;) {
    const entries = await runtime.store.find(OUTBOX_COLLECTION, { where, limit: DRAIN_BATCH });
    if (entries.length === 0) break;
    const jobs = entries.flatMap((entry) => {
      const event = entry.event as OutboxEvent;
      const automations = runtime.automations.records.get(recordTriggerKey(event.schema, event.type)) ?? [];
      const schema = runtime.schemas.find((candidate) => candidate.name === event.schema);
      if (!schema || automations.length === 0) return [];
      // Entries written with the record hold it as stored; it is shown to flows as the API shows it.
      const present = (record: unknown): PublicRecord | undefined =>
        record === null || record === undefined
          ? undefined
          : entry.presented
            ? (record as PublicRecord)
            : presentRecord({ schema, components: runtime.schemas, record: record as StoredRecord });
      const jobs = recordTriggerJobs(entry.id, { type: event.type, projectId, schema: event.schema, record: present(entry.record)!, previous: present(entry.previous) }, automations);
      // The entry may have been queued already (in a batch, whose runs the queue does not know by id).
      return jobs.map((job) => ({ ...job, redelivered: true }));
    });
    if (jobs.length > 0) await enqueueAutomationJobs(jobs);
    await runtime.store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "in", value: entries.map((entry) => entry.id) }]);
    if (entries.length < DRAIN_BATCH) break;
  }
  const { waiting, queueRefused } = await requeueUnqueuedSubmissions(runtime);
  // A submission the queue refused again is queued again by this process every few seconds.
  if (queueRefused) rememberUndeliveredProject(projectId);
  if (waiting > 0) log.warn("form submissions still wait for the automation queue", { projectId, waiting });
  // Entries too recent for a settled drain: drained without the wait in a few seconds.
  const recent = options.settled ? await runtime.store.count(OUTBOX_COLLECTION) : 0;
  if (recent > 0) rememberUndeliveredProject(projectId);
  return waiting + recent;
}
