import { deleteFilesQuietly } from "@/lib/files/delete-files";
import { releaseUnusedFiles } from "@/lib/files/release-unused-files";
import { storeRecordUploads, type RecordUpload } from "@/lib/files/store-record-uploads";
import type { FieldCondition } from "@/lib/records/record-store";
import { checkRecordWrite } from "./check-record-write";
import { presentRecord, type PublicRecord } from "./present-record";
import { emitRecordChange } from "./record-events";
import { assertSchemaHasRecords, planWriteEvent, writeOptions, type HiddenValues, type RecordWriteOptions } from "./record-service-options";
import { rethrowUniqueViolation } from "./rethrow-unique-violation";

export interface UpdateFirstRecordOptions extends RecordWriteOptions {
  /** Which record: the first match, oldest first (createdAt, then id). Values are literals. */
  where: FieldCondition[];
  /** The fields to change (a partial JSON object); absent fields keep their values. */
  input: unknown;
  /** Files for file fields (the records API's multipart writes); each file's id goes at its path. Uploads into components need `where` to be the record's id. */
  uploads?: readonly RecordUpload[];
  /** Stored with the record, never answered (see HiddenValues). */
  hiddenValues?: HiddenValues;
}

export interface UpdateFirstRecordResult {
  matched: boolean;
  /** The record after the change, or null when nothing matched. */
  record: PublicRecord | null;
  /** The record before the change, or null when nothing matched. */
  previous: PublicRecord | null;
}

/**
 * Changes the first record that matches `where` (the flow engine's update step; updateRecord is
 * this by id). Validates only the given fields (required ones may not be cleared), checks file ids
 * given as values and related records as createRecord does, stores the uploads, maps a taken unique
 * value to 409. Uploads are deleted again when the write fails or nothing matched; after the write,
 * files the record no longer points at (replaced or cleared) are deleted when no other record of
 * the field uses them (releaseUnusedFiles). Emits an "update" record-change event with the
 * previous version when origin is "api" and a record matched.
 */
export async function updateFirstRecord(options: UpdateFirstRecordOptions): Promise<UpdateFirstRecordResult> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const recordId = idCondition(options.where);
  const { values, fileIds } = await checkRecordWrite({ ...options, recordId, mode: "update" });

  const plan = await planWriteEvent(options, "update");
  await storeRecordUploads({ store, schema, uploads: options.uploads ?? [], fileIds, recordId: recordId ?? undefined, signal });
  let result;
  try {
    result = await store.updateFirst(schema.name, options.where, { ...options.hiddenValues, ...values }, writeOptions(signal, plan));
  } catch (error) {
    await deleteFilesQuietly(store, fileIds);
    rethrowUniqueViolation(error, schema.name, values);
  }
  if (!result.matched || !result.record || !result.previous) {
    await deleteFilesQuietly(store, fileIds);
    return { matched: false, record: null, previous: null };
  }

  const record = presentRecord({ schema, components: schemas, record: result.record });
  const previous = presentRecord({ schema, components: schemas, record: result.previous });
  if (options.origin === "api") await emitRecordChange({ type: "update", projectId: options.projectId, schema: schema.name, record, previous }, plan);
  await releaseUnusedFiles({ store, schema, before: previous, after: record, components: schemas });
  return { matched: true, record, previous };
}

/** The record id `where` names when it is exactly one id condition (updateRecord's), else null. */
function idCondition(where: readonly FieldCondition[]): string | null {
  const [only, ...rest] = where;
  return rest.length === 0 && only?.field === "id" && only.op === "eq" && typeof only.value === "string" ? only.value : null;
}
