import { deleteRecord } from "@/lib/records-service/delete-record";
import type { PublicRecord } from "@/lib/records-service/present-record";
import type { RecordWriteOptions } from "@/lib/records-service/record-service-options";
import { releaseUnusedFiles } from "./release-unused-files";

export interface DeleteRecordWithFilesOptions extends RecordWriteOptions {
  id: string;
}

/** deleteRecord for the records API: the record's files go with it unless another record uses them. */
export async function deleteRecordWithFiles(options: DeleteRecordWithFilesOptions): Promise<PublicRecord> {
  const record = await deleteRecord(options);
  await releaseUnusedFiles({ store: options.store, schema: options.schema, before: record });
  return record;
}
