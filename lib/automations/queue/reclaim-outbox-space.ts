import { log } from "@/lib/log";
import { getProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { OUTBOX_COLLECTION } from "../record-event-outbox";

/** A bloated outbox takes a while to vacuum the first time; the sweep waits for it, not a write. */
const RECLAIM_TIMEOUT_MS = 60_000;

/**
 * Every record event leaves a deleted entry in the project's outbox. On a database that vacuums
 * nothing by itself (PGlite, or a server with autovacuum off) those entries would grow the table by
 * about a gigabyte an hour at full load and be read again by every sweep, so the minute sweep
 * gives their space back (record-store.ts, reclaimDeletedSpace). Never throws.
 */
export async function reclaimOutboxSpace(projectId: string): Promise<void> {
  try {
    const runtime = await getProjectRuntime(projectId);
    await runtime?.store.reclaimDeletedSpace(OUTBOX_COLLECTION, { timeoutMs: RECLAIM_TIMEOUT_MS });
  } catch (error) {
    log.warn("automation outbox space could not be reclaimed", { projectId, error });
  }
}
