import { createRecord } from "@/lib/records-service/create-record";
import type { PublicRecord } from "@/lib/records-service/present-record";
import type { RecordWriteOptions } from "@/lib/records-service/record-service-options";
import { deleteFilesQuietly } from "./delete-files";
import type { RecordUpload } from "./read-record-request";
import { storeRecordUploads } from "./store-record-uploads";

export interface CreateRecordWithFilesOptions extends RecordWriteOptions {
  values: unknown;
  uploads: readonly RecordUpload[];
}

/**
 * createRecord for the records API: values are validated (and file ids named in them checked)
 * before any upload is stored; uploads are stored, their ids put in their fields, and deleted
 * again when the record write fails (validation, a missing related record, a taken unique value,
 * a database fault), so nothing is left behind.
 */
export async function createRecordWithFiles(options: CreateRecordWithFilesOptions): Promise<PublicRecord> {
  const { values, uploads, ...write } = options;
  const prepared = await storeRecordUploads({ ...write, values, uploads, mode: "create" });
  try {
    return await createRecord({ ...write, input: prepared.input });
  } catch (error) {
    await deleteFilesQuietly(write.store, prepared.storedFileIds);
    throw error;
  }
}
