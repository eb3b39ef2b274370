import { checkFileReferences } from "@/lib/files/check-file-references";
import { planRecordUploads, type RecordUpload } from "@/lib/files/store-record-uploads";
import { effectiveFields } from "@/lib/schemas/schema-definition";
import { checkRelationsExist } from "./check-relations-exist";
import { assertHiddenValues, type HiddenValues, type RecordServiceOptions } from "./record-service-options";
import { validateRecordInput } from "./validate-record";

export interface CheckRecordWriteOptions extends RecordServiceOptions {
  /** The caller's field values: all of them on create, the ones to change on update. */
  input: unknown;
  /** Files for top-level file fields, sent with the values (the records API's multipart writes). */
  uploads?: readonly RecordUpload[];
  hiddenValues?: HiddenValues;
  mode: "create" | "update";
}

export interface CheckedRecordWrite {
  /** The validated values to store, each upload's file id in its field. */
  values: Record<string, unknown>;
  /** The file id of each upload, in the uploads' order: stored just before the write (storeRecordUploads). */
  fileIds: string[];
}

/**
 * Everything a create or an update checks before anything is stored, uploads included: each upload
 * gets its file id in its field, the values are validated (422 with issue paths), hidden values may
 * not collide with fields, file ids given as values must name files uploaded for that field of the
 * schema (422), and related records must exist (422).
 */
export async function checkRecordWrite(options: CheckRecordWriteOptions): Promise<CheckedRecordWrite> {
  const { store, schema, schemas, signal } = options;
  const { input, fileIds } = planRecordUploads(options.input, options.uploads ?? []);
  const values = validateRecordInput({ schema, components: schemas, input, mode: options.mode });
  assertHiddenValues(
    schema,
    options.hiddenValues,
    effectiveFields(schema).map((field) => field.name),
  );
  await checkFileReferences({ store, schema, values, uploadedIds: new Set(fileIds), signal });
  await checkRelationsExist({ store, schema, schemas, values, signal });
  return { values, fileIds };
}
