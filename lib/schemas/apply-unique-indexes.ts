import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "./schema-definition";

/**
 * Creates unique indexes for `fields` one by one. When one cannot be created (existing
 * duplicates), the indexes created by this call are dropped again and the error is rethrown as
 * AppError("unique_violation") (409) naming the field (issue path `fields.<i>.unique`) and,
 * through the store's message, a duplicate value.
 */
export async function createUniqueIndexes(store: RecordStore, definition: SchemaDefinition, fields: readonly string[], signal?: AbortSignal): Promise<void> {
  const created: string[] = [];
  for (const field of fields) {
    try {
      await store.ensureUniqueIndex(definition.name, field, signal ? { signal } : {});
      created.push(field);
    } catch (error) {
      await dropUniqueIndexesQuietly(store, definition.name, created);
      if (isAppError(error) && error.code === "unique_violation") {
        const index = definition.fields.findIndex((candidate) => candidate.name === field);
        const path = index === -1 ? field : `fields.${index}.unique`;
        throw new AppError("unique_violation", error.message, { field, issues: [{ path, message: error.message }], cause: error });
      }
      throw error;
    }
  }
}

/** Compensation after a failed save: drops indexes, logging (not throwing) what cannot be dropped. */
export async function dropUniqueIndexesQuietly(store: RecordStore, collection: string, fields: readonly string[]): Promise<void> {
  for (const field of fields) {
    try {
      await store.dropUniqueIndex(collection, field);
    } catch (error) {
      log.error("could not drop a unique index while undoing a schema change", { collection, field, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
