import { AppError } from "@/lib/errors";
import type { PublicRecord } from "@/lib/records-service/present-record";
import type { RecordWriteOptions } from "@/lib/records-service/record-service-options";
import { updateFirstRecord } from "@/lib/records-service/update-first-record";
import { deleteFilesQuietly } from "./delete-files";
import type { RecordUpload } from "./read-record-request";
import { releaseUnusedFiles } from "./release-unused-files";
import { storeRecordUploads } from "./store-record-uploads";

export interface UpdateRecordWithFilesOptions extends RecordWriteOptions {
  id: string;
  /** The fields to change (PATCH). */
  values: unknown;
  uploads: readonly RecordUpload[];
}

/**
 * updateRecord for the records API, with uploads handled as on create. After the write, files the
 * record no longer points at (replaced or cleared) are deleted when no other record uses them.
 */
export async function updateRecordWithFiles(options: UpdateRecordWithFilesOptions): Promise<PublicRecord> {
  const { id, values, uploads, ...write } = options;
  const prepared = await storeRecordUploads({ ...write, values, uploads, mode: "update" });
  let result;
  try {
    result = await updateFirstRecord({ ...write, input: prepared.input, where: [{ field: "id", op: "eq", value: id }] });
    if (!result.record || !result.previous) throw new AppError("not_found", `no ${write.schema.name} record has the id "${id}"`);
  } catch (error) {
    await deleteFilesQuietly(write.store, prepared.storedFileIds);
    throw error;
  }
  await releaseUnusedFiles({ store: write.store, schema: write.schema, before: result.previous, after: result.record });
  return result.record;
}
