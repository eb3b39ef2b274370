import type { FieldCondition } from "@/lib/records/record-store";
import { effectiveFields } from "@/lib/schemas/schema-definition";
import { checkRelationsExist } from "./check-relations-exist";
import { presentRecord, type PublicRecord } from "./present-record";
import { emitRecordChange } from "./record-events";
import { assertHiddenValues, assertSchemaHasRecords, planWriteEvent, writeOptions, type HiddenValues, type RecordWriteOptions } from "./record-service-options";
import { rethrowUniqueViolation } from "./rethrow-unique-violation";
import { validateRecordInput } from "./validate-record";

export interface UpdateFirstRecordOptions extends RecordWriteOptions {
  /** Which record: the first match, oldest first (createdAt, then id). Values are literals. */
  where: FieldCondition[];
  /** The fields to change (a partial JSON object); absent fields keep their values. */
  input: unknown;
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
 * this by id). Validates only the given fields (required ones may not be cleared), checks related
 * records exist, maps a taken unique value to 409. Emits an "update" record-change event with the
 * previous version when origin is "api" and a record matched.
 */
export async function updateFirstRecord(options: UpdateFirstRecordOptions): Promise<UpdateFirstRecordResult> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const values = validateRecordInput({ schema, components: schemas, input: options.input, mode: "update" });
  assertHiddenValues(schema, options.hiddenValues, effectiveFields(schema).map((field) => field.name));
  await checkRelationsExist({ store, schema, schemas, values, signal });

  const plan = await planWriteEvent(options, "update");
  let result;
  try {
    result = await store.updateFirst(schema.name, options.where, { ...options.hiddenValues, ...values }, writeOptions(signal, plan));
  } catch (error) {
    rethrowUniqueViolation(error, schema.name, values);
  }
  if (!result.matched || !result.record || !result.previous) return { matched: false, record: null, previous: null };

  const record = presentRecord({ schema, components: schemas, record: result.record });
  const previous = presentRecord({ schema, components: schemas, record: result.previous });
  if (options.origin === "api") await emitRecordChange({ type: "update", projectId: options.projectId, schema: schema.name, record, previous }, plan);
  return { matched: true, record, previous };
}
