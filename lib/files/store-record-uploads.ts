import { newId } from "@/lib/ids";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { deleteFilesQuietly } from "./delete-files";
import { storeFile } from "./store-file";

/** A file sent for a top-level file field of the schema (read from a request by read-record-request.ts). */
export interface RecordUpload {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface PlannedRecordUploads {
  /** The values with each upload's file id in its field. */
  input: unknown;
  /** The file id of each upload, in the uploads' order. */
  fileIds: string[];
}

/**
 * Gives each upload its file id and puts the id in the upload's field of the values, so that the
 * values can be validated (and checked) before anything is stored. Pure: nothing is stored.
 */
export function planRecordUploads(values: unknown, uploads: readonly RecordUpload[]): PlannedRecordUploads {
  const fileIds = uploads.map(() => newId("file"));
  const input =
    uploads.length === 0 || typeof values !== "object" || values === null || Array.isArray(values)
      ? values
      : Object.fromEntries([...Object.entries(values), ...uploads.map((upload, index): [string, unknown] => [upload.field, fileIds[index]])]);
  return { input, fileIds };
}

export interface StoreRecordUploadsOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  uploads: readonly RecordUpload[];
  /** planRecordUploads' ids, one per upload. */
  fileIds: readonly string[];
  signal?: AbortSignal;
}

/**
 * Stores a record write's uploads under their planned ids, each marked as uploaded for its field of
 * the schema. A failure while storing deletes what was stored before the error is rethrown.
 */
export async function storeRecordUploads(options: StoreRecordUploadsOptions): Promise<void> {
  const { store, schema, uploads, fileIds, signal } = options;
  const stored: string[] = [];
  try {
    for (const [index, upload] of uploads.entries()) {
      const id = fileIds[index]!;
      await storeFile({ store, id, filename: upload.filename, contentType: upload.contentType, data: upload.data, schema: schema.name, field: upload.field, signal });
      stored.push(id);
    }
  } catch (error) {
    await deleteFilesQuietly(store, stored);
    throw error;
  }
}
