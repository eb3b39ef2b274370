import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { searchableFields } from "@/lib/records-service/parse-list-query";
import type { SchemaDefinition } from "./schema-definition";

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

/**
 * Keeps the search index of a collection that has one over the schema's text fields
 * (searchableFields): on every save, an index over an earlier field list is replaced (or dropped,
 * with no text field left). A collection never searched gets none here: its first search builds it
 * (lib/records-service/index-search-on-first-use.ts). Logs (never throws) a failure: search answers
 * the same without the index, only slower.
 */
export async function ensureSearchIndexQuietly(store: RecordStore, definition: SchemaDefinition, signal?: AbortSignal): Promise<void> {
  try {
    await store.ensureSearchIndex(definition.name, searchableFields(definition), { onlyWhereIndexed: true, ...(signal ? { signal } : {}) });
  } catch (error) {
    log.error("could not build a search index", { collection: definition.name, error: error instanceof Error ? error.message : String(error) });
  }
}
