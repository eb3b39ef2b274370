import type { ErrorIssue } from "@/lib/errors";
import type { FieldCondition } from "@/lib/records/record-store";
import { effectiveFields } from "@/lib/schemas/schema-definition";
import type { RecordServiceOptions } from "./record-service-options";
import { checkRecordInput } from "./validate-record";

export interface FindTakenUniqueValuesOptions extends RecordServiceOptions {
  /** The caller's field values: all of them on create, the ones to change on update. */
  input: unknown;
  mode: "create" | "update";
  /** The record being updated: its own values are not taken by another record. */
  recordId?: string;
}

/** The issue of a taken unique value, worded as the records API's 409 words it (rethrow-unique-violation.ts). */
export const TAKEN_UNIQUE_VALUE = "must be unique: another record already has this value";

/**
 * The unique fields whose valid value in `input` another record already holds, as issues at those
 * fields (an empty list when none is). For a form that shows every problem of a refused write at
 * once: a write checks unique values only when it stores the record (the database's index decides,
 * also under concurrent writes), after every other check passed, and names the first taken field.
 * Only text, number and boolean values are unique (as the index constrains them). One count per
 * unique field given, each stopping at the first match.
 */
export async function findTakenUniqueValues(options: FindTakenUniqueValuesOptions): Promise<ErrorIssue[]> {
  const { store, schema, schemas, signal } = options;
  let values: Record<string, unknown>;
  try {
    values = checkRecordInput({ schema, components: schemas, input: options.input, mode: options.mode }).values;
  } catch {
    return []; // not an object of values at all: nothing to compare
  }
  const issues: ErrorIssue[] = [];
  for (const field of effectiveFields(schema)) {
    const value = values[field.name];
    if (!("unique" in field) || !field.unique || !(typeof value === "string" || typeof value === "number" || typeof value === "boolean")) continue;
    const where: FieldCondition[] = [{ field: field.name, op: "eq", value }];
    if (options.recordId) where.push({ field: "id", op: "ne", value: options.recordId });
    if ((await store.count(schema.name, { where, limit: 1, signal })) > 0) issues.push({ path: field.name, message: TAKEN_UNIQUE_VALUE });
  }
  return issues;
}
