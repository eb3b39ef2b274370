import { AppError, type ErrorIssue } from "@/lib/errors";
import { findFileReferenceIssues } from "@/lib/files/find-file-reference-issues";
import { planRecordUploads, type RecordUpload } from "@/lib/files/store-record-uploads";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { findMissingRelations } from "./find-missing-relations";
import { assertHiddenValues, type HiddenValues, type RecordServiceOptions } from "./record-service-options";
import { checkRecordInput, invalidRecordError } from "./validate-record";

export interface CheckRecordWriteOptions extends RecordServiceOptions {
  /** The caller's field values: all of them on create, the ones to change on update. */
  input: unknown;
  /** Files for file fields (top-level or inside components), sent with the values (the records API's multipart writes). */
  uploads?: readonly RecordUpload[];
  /**
   * The record written, when known: files uploaded into components belong to one record, so only
   * that record may hold their ids (null or absent: a new record, or an update by conditions).
   */
  recordId?: string | null;
  hiddenValues?: HiddenValues;
  mode: "create" | "update";
}

export interface CheckedRecordWrite {
  /** The validated values to store, each upload's file id in its field. */
  values: Record<string, unknown>;
  /** The file id of each upload, in the uploads' order: stored just before the write (storeRecordUploads). */
  fileIds: string[];
}

/** Field types whose values may hold a file id or a record id, directly or in the entries they nest. */
const REFERENCE_FIELD_TYPES: ReadonlySet<string> = new Set(["file", "relation", "component", "dynamic_zone"]);
const NO_REFERENCE_ISSUES: [ErrorIssue[][], ErrorIssue[][]] = [[], []];

/**
 * Whether a record of the schema can hold an id to look up. Most writes go to schemas that cannot,
 * and on the hot path of the records API and of Create steps the two lookups would still build
 * their component maps, sets and promises for nothing.
 */
function mayHoldReferences(schema: SchemaDefinition): boolean {
  return effectiveFields(schema).some((field) => REFERENCE_FIELD_TYPES.has(field.type));
}

/**
 * Everything a create or an update checks before anything is stored, uploads included: each upload
 * gets its file id in its field, the values are validated, hidden values may not collide with
 * fields, file ids given as values must name files uploaded for that field of the schema, and
 * related records must exist. Every problem is answered at once, in one 422 listing each with its
 * path (invalid values first, then file ids, then missing related records): the file and relation
 * checks run over the valid part of the values even when other fields are invalid, so a caller
 * never fixes one problem only to hear of the next.
 */
export async function checkRecordWrite(options: CheckRecordWriteOptions): Promise<CheckedRecordWrite> {
  const { store, schema, schemas, signal } = options;
  const { input, fileIds } = planRecordUploads(options.input, options.uploads ?? []);
  const { values, issues } = checkRecordInput({ schema, components: schemas, input, mode: options.mode });
  assertHiddenValues(
    schema,
    options.hiddenValues,
    effectiveFields(schema).map((field) => field.name),
  );
  const [[fileIssues = []], [relationIssues = []]] = mayHoldReferences(schema)
    ? await Promise.all([
        findFileReferenceIssues({ store, schema, records: [values], uploadedIds: new Set(fileIds), components: schemas, owners: [options.recordId ?? null], signal }),
        findMissingRelations({ store, schema, schemas, records: [values], signal }),
      ])
    : NO_REFERENCE_ISSUES;
  if (issues.length > 0) throw invalidRecordError(schema.name, [...issues, ...fileIssues, ...relationIssues]);
  const referenceIssues = [...fileIssues, ...relationIssues];
  if (referenceIssues.length > 0) throw referenceError(referenceIssues);
  return { values, fileIds };
}

/** Values that are valid but point at files or records that are not there: the field of the first is named (`field`). */
function referenceError(issues: ErrorIssue[]): AppError {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new AppError("validation_failed", `${first.path}: ${first.message}${more}`, { issues, field: first.path.split(".")[0] });
}
