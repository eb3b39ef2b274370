import { AppError } from "@/lib/errors";
import type { RecordUpload } from "@/lib/files/store-record-uploads";
import type { PublicRecord } from "./present-record";
import type { HiddenValues, RecordWriteOptions } from "./record-service-options";
import { updateFirstRecord } from "./update-first-record";

export interface UpdateRecordOptions extends RecordWriteOptions {
  id: string;
  /** The fields to change (a partial JSON object, PATCH semantics); absent fields keep their values. */
  input: unknown;
  /** Files for top-level file fields (the records API's multipart writes); each file's id goes in its field. */
  uploads?: readonly RecordUpload[];
  /** Stored with the record, never answered (see HiddenValues). */
  hiddenValues?: HiddenValues;
}

/**
 * Changes one record by id (PATCH semantics; a component or dynamic zone given is replaced
 * whole). Answers the updated record; a missing id is AppError("not_found"). Validation, file,
 * relation, uniqueness and event rules are those of updateFirstRecord.
 */
export async function updateRecord(options: UpdateRecordOptions): Promise<PublicRecord> {
  const { id, ...rest } = options;
  const result = await updateFirstRecord({ ...rest, where: [{ field: "id", op: "eq", value: id }] });
  if (!result.record) throw new AppError("not_found", `no ${options.schema.name} record has the id "${id}"`);
  return result.record;
}
