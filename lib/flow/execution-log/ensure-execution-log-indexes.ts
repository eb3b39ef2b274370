import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION } from "./execution-log-entry";

/**
 * The log's fields that the executions viewer filters on alone. Without an index, a filter on an
 * endpoint that runs rarely walks the whole log backwards (newest first) to fill a page. Outcome,
 * source and status match large shares of the log, where walking the order is the right plan anyway.
 * Each entry holds one of the two (the other is null), so an insert adds to one index, not two.
 */
export const EXECUTION_LOG_INDEXED_FIELDS = ["endpointId", "automationId"] as const;

/** Building an index over a long existing log takes a while; it runs off every caller's path. */
const INDEX_BUILD_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Gives the execution log its lookup indexes (RecordStore.ensureLookupIndex: the id follows the
 * field, so a filtered page comes newest first straight from the index). The store builds each
 * once (a project's store is shared by its callers) and retries a failure on the next call; the
 * build is idempotent, so an existing project's log gets them on first use like a new one.
 */
export async function ensureExecutionLogIndexes(store: RecordStore): Promise<void> {
  // One after the other: two concurrent builds on one table would only wait for each other.
  for (const field of EXECUTION_LOG_INDEXED_FIELDS) await store.ensureLookupIndex(EXECUTIONS_COLLECTION, field, { timeoutMs: INDEX_BUILD_TIMEOUT_MS });
}

// Every logged call asks: a project runtime hands its calls one store object, so once that store's
// indexes are there, its later calls skip even the store's own once-per-key lookups.
const storesWithIndexes = new WeakSet<RecordStore>();

/** Starts ensureExecutionLogIndexes without waiting for it: a failure is logged and retried later. */
export function ensureExecutionLogIndexesInBackground(store: RecordStore, projectId?: string): void {
  if (storesWithIndexes.has(store)) return;
  ensureExecutionLogIndexes(store).then(
    () => storesWithIndexes.add(store),
    (error: unknown) => log.warn("execution log indexes could not be created", { projectId, error }),
  );
}
