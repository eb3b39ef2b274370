import { deleteFilesQuietly } from "@/lib/files/delete-files";
import { isNestedUpload, storeRecordUploads, type RecordUpload } from "@/lib/files/store-record-uploads";
import { newId } from "@/lib/ids";
import { checkRecordWrite } from "./check-record-write";
import { presentRecord, type PublicRecord } from "./present-record";
import { emitRecordChange } from "./record-events";
import { assertSchemaHasRecords, planWriteEvent, writeOptions, type HiddenValues, type RecordWriteOptions } from "./record-service-options";
import { rethrowUniqueViolation } from "./rethrow-unique-violation";

export interface CreateRecordOptions extends RecordWriteOptions {
  /** The caller's field values (a JSON object). */
  input: unknown;
  /** Files for file fields (the records API's multipart writes); each file's id goes at its path. */
  uploads?: readonly RecordUpload[];
  /** Stored with the record, never answered (see HiddenValues). */
  hiddenValues?: HiddenValues;
}

/**
 * Creates a record: validates the input (422 with issue paths), checks that file ids given as
 * values name files uploaded for that field and that related records exist (422 naming the field
 * and the id), stores the uploads, then the record (a taken unique value → 409 naming the field,
 * enforced by the database index, so also under concurrent writes) and answers the record as the
 * API shows it. Uploads are stored only once every check passed and are deleted again when the
 * record write fails, so nothing is left behind. Emits a "create" record-change event when origin
 * is "api".
 */
export async function createRecord(options: CreateRecordOptions): Promise<PublicRecord> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const { values, fileIds } = await checkRecordWrite({ ...options, mode: "create" });
  // Files uploaded into components are marked with their record, so its id is chosen first.
  const recordId = options.uploads?.some(isNestedUpload) ? newId("record") : undefined;

  // Writes that automations listen to store their event in the outbox with the record.
  const plan = await planWriteEvent(options, "create");
  await storeRecordUploads({ store, schema, uploads: options.uploads ?? [], fileIds, recordId, signal });
  let stored;
  try {
    stored = await store.insert(schema.name, { ...options.hiddenValues, ...values, ...(recordId ? { id: recordId } : {}) }, writeOptions(signal, plan));
  } catch (error) {
    await deleteFilesQuietly(store, fileIds);
    rethrowUniqueViolation(error, schema.name, values);
  }
  const record = presentRecord({ schema, components: schemas, record: stored });
  if (options.origin === "api") await emitRecordChange({ type: "create", projectId: options.projectId, schema: schema.name, record }, plan);
  return record;
}
