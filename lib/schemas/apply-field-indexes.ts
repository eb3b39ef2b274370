import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";

/**
 * Creates the indexes of `indexed` fields one by one. When one cannot be created (a timeout, the
 * database unreachable), the ones created by this call are dropped again and the error is rethrown.
 * Building an index reads the whole collection: seconds per million records (on a PostgreSQL
 * server writes go on meanwhile: the store builds it concurrently).
 */
export async function createFieldIndexes(store: RecordStore, collection: string, fields: readonly string[], signal?: AbortSignal): Promise<void> {
  const created: string[] = [];
  for (const field of fields) {
    try {
      await store.ensureFieldIndex(collection, field, signal ? { signal } : {});
      created.push(field);
    } catch (error) {
      await dropFieldIndexesQuietly(store, collection, created);
      throw error;
    }
  }
}

/** Drops indexes of fields no longer indexed, or compensates a failed save; logs (never throws) what cannot be dropped: a stray index costs only its upkeep. */
export async function dropFieldIndexesQuietly(store: RecordStore, collection: string, fields: readonly string[]): Promise<void> {
  for (const field of fields) {
    try {
      await store.dropFieldIndex(collection, field);
    } catch (error) {
      log.error("could not drop a field index", { collection, field, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
