import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { deleteFiles } from "./delete-files";
import { FILES_COLLECTION } from "./stored-file";

const BATCH = 200;

/**
 * Deletes every file uploaded for a schema (after the schema and its records were deleted).
 * Never throws: the schema is already gone; a failure is logged and the files stay unreferenced.
 */
export async function deleteSchemaFiles(options: { store: RecordStore; schema: string }): Promise<number> {
  let deleted = 0;
  try {
    for (;;) {
      const batch = await options.store.find(FILES_COLLECTION, {
        where: [{ field: "schema", op: "eq", value: options.schema }],
        sort: [{ field: "id", direction: "asc" }],
        limit: BATCH,
      });
      if (batch.length === 0) return deleted;
      const removed = await deleteFiles({ store: options.store, ids: batch.map((file) => file.id) });
      deleted += removed;
      // Nothing could be deleted (a concurrent delete took them): the next page would be the same.
      if (removed === 0 && batch.length > 0) return deleted;
    }
  } catch (error) {
    log.error("could not delete the files of a deleted schema", { schema: options.schema, error: error instanceof Error ? error.message : String(error) });
    return deleted;
  }
}
