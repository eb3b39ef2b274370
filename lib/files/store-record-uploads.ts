import { newId } from "@/lib/ids";
import type { RecordStore } from "@/lib/records/record-store";
import { validateRecordInput } from "@/lib/records-service/validate-record";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { checkFileReferences } from "./check-file-references";
import { deleteFilesQuietly } from "./delete-files";
import type { RecordUpload } from "./read-record-request";
import { storeFile } from "./store-file";

export interface PreparedRecordWrite {
  /** The values with each uploaded file's id in its field. */
  input: unknown;
  /** Ids of the files stored for this write; delete them again if the record write fails. */
  storedFileIds: string[];
}

export interface StoreRecordUploadsOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  schemas: readonly SchemaDefinition[];
  values: unknown;
  uploads: readonly RecordUpload[];
  mode: "create" | "update";
  signal?: AbortSignal;
}

/**
 * Prepares a record write that may carry files: gives each upload its id, validates the values
 * with those ids (422 before anything is stored), checks the file ids named as values (422), then
 * stores the uploads. A failure while storing deletes what was stored.
 */
export async function storeRecordUploads(options: StoreRecordUploadsOptions): Promise<PreparedRecordWrite> {
  const { store, schema, uploads } = options;
  const ids = uploads.map(() => newId("file"));
  const input =
    uploads.length === 0 || typeof options.values !== "object" || options.values === null || Array.isArray(options.values)
      ? options.values
      : Object.fromEntries([...Object.entries(options.values), ...uploads.map((upload, index): [string, unknown] => [upload.field, ids[index]])]);
  const values = validateRecordInput({ schema, components: options.schemas, input, mode: options.mode });
  await checkFileReferences({ store, schema, values, uploadedIds: new Set(ids), signal: options.signal });

  const storedFileIds: string[] = [];
  try {
    for (const [index, upload] of uploads.entries()) {
      await storeFile({ store, id: ids[index], filename: upload.filename, contentType: upload.contentType, data: upload.data, schema: schema.name, field: upload.field });
      storedFileIds.push(ids[index]!);
    }
  } catch (error) {
    await deleteFilesQuietly(store, storedFileIds);
    throw error;
  }
  return { input, storedFileIds };
}
