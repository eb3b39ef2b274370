import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { chunkId, FILE_CHUNKS_COLLECTION, FILES_COLLECTION, toStoredFile } from "./stored-file";

export interface DeleteFilesOptions {
  store: RecordStore;
  ids: readonly string[];
}

/** The record store takes at most 1000 values in one `in` condition. */
function batches<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * Deletes files (their chunks and descriptions) by id; unknown ids are skipped. Answers how many
 * files were deleted. Three store queries for up to 500 files.
 */
export async function deleteFiles(options: DeleteFilesOptions): Promise<number> {
  const { store } = options;
  const ids = [...new Set(options.ids)];
  if (ids.length === 0) return 0;
  const files = (await store.findByIds(FILES_COLLECTION, ids)).map(toStoredFile);
  if (files.length === 0) return 0;
  // The description goes first: a file without it is gone for readers even if a chunk delete fails.
  let deleted = 0;
  for (const batch of batches(files.map((file) => file.id))) deleted += await store.deleteMany(FILES_COLLECTION, [{ field: "id", op: "in", value: batch }]);
  const chunkIds = files.flatMap((file) => Array.from({ length: file.chunks }, (_, index) => chunkId(file.id, index)));
  for (const batch of batches(chunkIds)) await store.deleteMany(FILE_CHUNKS_COLLECTION, [{ field: "id", op: "in", value: batch }]);
  return deleted;
}

/** Cleanup after a failed write: never throws (the original error is what the caller reports). */
export async function deleteFilesQuietly(store: RecordStore, ids: readonly string[]): Promise<void> {
  try {
    await deleteFiles({ store, ids });
  } catch (error) {
    log.error("could not delete uploaded files after a failed write", { files: ids, error: error instanceof Error ? error.message : String(error) });
  }
}

/** Removes a partly stored file: its description (if written) and its first `chunks` chunks. Never throws. */
export async function deleteFileDocuments(store: RecordStore, id: string, chunks: number): Promise<void> {
  try {
    await store.deleteMany(FILES_COLLECTION, [{ field: "id", op: "eq", value: id }]);
    if (chunks > 0) {
      await store.deleteMany(FILE_CHUNKS_COLLECTION, [{ field: "id", op: "in", value: Array.from({ length: chunks }, (_, index) => chunkId(id, index)) }]);
    }
  } catch (error) {
    log.error("could not delete a partly stored file", { file: id, error: error instanceof Error ? error.message : String(error) });
  }
}
