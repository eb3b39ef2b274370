import { log } from "@/lib/log";
import { trackAfterResponse } from "@/lib/http/after-response";
import type { RecordStore } from "@/lib/records/record-store";
import { OUTBOX_COLLECTION } from "./record-event-outbox";
import { rememberUndeliveredProject } from "./queue/undelivered-jobs";

/**
 * Outbox entries whose runs are queued are removed after the write is answered, in batches: the
 * entries of 50 ms go in one DELETE, one batch at a time per customer database, so a stream of writes
 * costs a statement every 50 ms instead of a round trip each. An entry left behind (a failed
 * DELETE, a process that died first) is only queued again by the drain, whose job ids the queue
 * recognises.
 */
const MAX_BATCH = 500;
/** How long entries gather before their DELETE: the drain leaves entries younger than 5 s alone. */
const GATHER_MS = 50;

interface PendingRemovals {
  projectIds: Set<string>;
  eventIds: string[];
}

const pending = new Map<RecordStore, PendingRemovals>();

async function flush(store: RecordStore, removals: PendingRemovals): Promise<void> {
  try {
    while (removals.eventIds.length > 0) {
      const batch = removals.eventIds.splice(0, MAX_BATCH);
      try {
        await store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "in", value: batch }]);
      } catch (error) {
        log.warn("automation outbox entries could not be removed: the drain will find them", { entries: batch.length, error });
        for (const projectId of removals.projectIds) rememberUndeliveredProject(projectId);
      }
    }
  } finally {
    // Entries added from now on start a new batch.
    pending.delete(store);
  }
}

export function removeOutboxEntryLater(store: RecordStore, projectId: string, eventId: string): void {
  const existing = pending.get(store);
  if (existing) {
    existing.projectIds.add(projectId);
    existing.eventIds.push(eventId);
    return;
  }
  const removals: PendingRemovals = { projectIds: new Set([projectId]), eventIds: [eventId] };
  pending.set(store, removals);
  // Writes answered within the next few milliseconds share the statement.
  trackAfterResponse(
    new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(() => flush(store, removals)),
    "automation outbox removal",
  );
}
