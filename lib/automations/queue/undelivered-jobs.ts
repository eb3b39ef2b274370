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
// An entry is normally removed right after its write; one older than this was left behind. Younger
// ones may belong to writes whose events are being queued right now, here or on another instance.
const SETTLE_MS = 5_000;

/** Projects whose runs wait to be queued, with when this process last failed to queue one. */
const pendingProjects = new Map<string, number>();
let drainTimer: NodeJS.Timeout | null = null;

/**
 * Outbox entries whose events this process is queueing: an add that timed out may still arrive, and
 * the runs of a batch are not known to the queue by id, so the drain leaves these to their add.
 */
const eventsBeingQueued = new Set<string>();

/** The event's runs are on their way to the queue: the drain leaves its outbox entry alone until queueingEnded. */
export function queueingStarted(eventId: string): void {
  eventsBeingQueued.add(eventId);
}

export function queueingEnded(eventId: string): void {
  eventsBeingQueued.delete(eventId);
}

function scheduleDrain(): void {
  if (drainTimer) return;
  drainTimer = setTimeout(() => {
    drainTimer = null;
    void drainPendingProjects();
  }, DRAIN_INTERVAL_MS);
  drainTimer.unref();
}

async function drainPendingProjects(): Promise<void> {
  for (const [projectId, failedAt] of [...pendingProjects]) {
    const left = await drainUndeliveredJobs(projectId).catch(() => 1);
    // Done once nothing is left that was written before the last failure settled.
    if (left === 0 && Date.now() - failedAt > SETTLE_MS && pendingProjects.get(projectId) === failedAt) pendingProjects.delete(projectId);
  }
  if (pendingProjects.size > 0) scheduleDrain();
}

/** Has this process queue the project's waiting runs every few seconds until none are left. */
export function rememberUndeliveredProject(projectId: string): void {
  pendingProjects.set(projectId, Date.now());
  scheduleDrain();
}

/**
 * Queues a project's waiting outbox entries (removing them once queued) and its unqueued form
 * submissions. Only entries older than a few seconds, and none this process is queueing: writes
 * still in flight here or on other instances are left to them (their runs queued twice in batches
 * would look in the log, but one still waiting in the queue would run twice). Answers how many
 * were waiting; throws when the queue or the database is down.
 */
export async function drainUndeliveredJobs(projectId: string, options: { followRecent?: boolean } = {}): Promise<number> {
  const runtime = await getProjectRuntime(projectId);
  if (!runtime) return 0;
  const where = [{ field: "createdAt", op: "lt" as const, value: new Date(Date.now() - SETTLE_MS).toISOString() }];
  let drained = 0;
  let skip = 0;
  for (;;) {
    const found = await runtime.store.find(OUTBOX_COLLECTION, { where, limit: DRAIN_BATCH, ...(skip > 0 ? { skip } : {}) });
    const entries = found.filter((entry) => !eventsBeingQueued.has(entry.id));
    skip += found.length - entries.length;
    drained += entries.length;
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
      const jobs = recordTriggerJobs(
        entry.id,
        { type: event.type, projectId, schema: event.schema, record: present(entry.record)!, previous: present(entry.previous) },
        automations,
      );
      // The entry may have been queued already (in a batch, whose runs the queue does not know by id).
      return jobs.map((job) => ({ ...job, redelivered: true }));
    });
    if (jobs.length > 0) await enqueueAutomationJobs(jobs);
    await runtime.store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "in", value: entries.map((entry) => entry.id) }]);
    if (found.length < DRAIN_BATCH) break;
  }
  const { waiting, queueRefused } = await requeueUnqueuedSubmissions(runtime);
  // A submission the queue refused again is queued again by this process every few seconds.
  if (queueRefused) rememberUndeliveredProject(projectId);
  if (waiting > 0) log.warn("form submissions still wait for the automation queue", { projectId, waiting });
  // `followRecent` (the sweep): entries too recent for now — a process that died a moment ago may
  // have left them — are looked at again in a few seconds, until they are removed or drained.
  if (options.followRecent && (await runtime.store.count(OUTBOX_COLLECTION, { limit: 1 })) > 0) rememberUndeliveredProject(projectId);
  return waiting + drained;
}
