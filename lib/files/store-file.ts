import { newId } from "@/lib/ids";
import type { RecordStore } from "@/lib/records/record-store";
import { chunkId, FILE_CHUNKS_COLLECTION, FILES_COLLECTION, toStoredFile, type StoredFile } from "./stored-file";
import { FILE_LIMITS } from "./file-limits";
import { deleteFileDocuments } from "./delete-files";

export interface StoreFileOptions {
  store: RecordStore;
  /** Given when the caller needs the id before the file is stored (to validate the record first). */
  id?: string;
  filename: string;
  contentType: string;
  data: Buffer;
  schema?: string;
  field?: string;
  /** The record an upload into a component or dynamic-zone entry belongs to (StoredFile.record). */
  record?: string;
  signal?: AbortSignal;
}

/**
 * Stores a file in the customer's database: its chunks first, then its description, so that a
 * description always means a complete file. When a write fails, whatever was written is deleted
 * again before the error is rethrown.
 */
export async function storeFile(options: StoreFileOptions): Promise<StoredFile> {
  const { store, data } = options;
  const id = options.id ?? newId("file");
  const operation = options.signal ? { signal: options.signal } : {};
  const chunks = Math.ceil(data.length / FILE_LIMITS.chunkBytes);
  let written = 0;
  try {
    for (let index = 0; index < chunks; index++) {
      const bytes = data.subarray(index * FILE_LIMITS.chunkBytes, (index + 1) * FILE_LIMITS.chunkBytes);
      await store.insert(FILE_CHUNKS_COLLECTION, { id: chunkId(id, index), fileId: id, index, data: bytes.toString("base64") }, operation);
      written = index + 1;
    }
    const stored = await store.insert(
      FILES_COLLECTION,
      {
        id,
        filename: options.filename,
        contentType: options.contentType,
        size: data.length,
        chunks,
        schema: options.schema ?? null,
        field: options.field ?? null,
        ...(options.record === undefined ? {} : { record: options.record }),
      },
      operation,
    );
    return toStoredFile(stored);
  } catch (error) {
    await deleteFileDocuments(store, id, written);
    throw error;
  }
}
