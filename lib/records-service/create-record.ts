import { effectiveFields } from "@/lib/schemas/schema-definition";
import { checkRelationsExist } from "./check-relations-exist";
import { presentRecord, type PublicRecord } from "./present-record";
import { emitRecordChange } from "./record-events";
import { assertHiddenValues, assertSchemaHasRecords, planWriteEvent, writeOptions, type HiddenValues, type RecordWriteOptions } from "./record-service-options";
import { rethrowUniqueViolation } from "./rethrow-unique-violation";
import { validateRecordInput } from "./validate-record";

export interface CreateRecordOptions extends RecordWriteOptions {
  /** The caller's field values (a JSON object). */
  input: unknown;
  /** Stored with the record, never answered (see HiddenValues). */
  hiddenValues?: HiddenValues;
}

/**
 * Creates a record: validates the input (422 with issue paths), checks that related records
 * exist (422 naming the field and the missing id), stores it (a taken unique value → 409 naming
 * the field, enforced by the database index, so also under concurrent writes) and answers the
 * record as the API shows it. Emits a "create" record-change event when origin is "api".
 */
export async function createRecord(options: CreateRecordOptions): Promise<PublicRecord> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const values = validateRecordInput({ schema, components: schemas, input: options.input, mode: "create" });
  assertHiddenValues(schema, options.hiddenValues, effectiveFields(schema).map((field) => field.name));
  await checkRelationsExist({ store, schema, schemas, values, signal });

  // Writes that automations listen to store their event in the outbox with the record.
  const plan = await planWriteEvent(options, "create");
  let stored;
  try {
    stored = await store.insert(schema.name, { ...options.hiddenValues, ...values }, writeOptions(signal, plan));
  } catch (error) {
    rethrowUniqueViolation(error, schema.name, values);
  }
  const record = presentRecord({ schema, components: schemas, record: stored });
  if (options.origin === "api") await emitRecordChange({ type: "create", projectId: options.projectId, schema: schema.name, record }, plan);
  return record;
}
