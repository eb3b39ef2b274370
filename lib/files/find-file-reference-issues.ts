import type { ErrorIssue } from "@/lib/errors";
import { isValidRecordId } from "@/lib/records/record-names";
import type { RecordStore } from "@/lib/records/record-store";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { FILES_COLLECTION, toStoredFile } from "./stored-file";

export interface FindFileReferenceIssuesOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  /** Validated values, one object per record (top-level file fields hold a file id or null). */
  records: readonly Record<string, unknown>[];
  /** Ids of files uploaded with this very request (stored a moment later; not looked up). */
  uploadedIds?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/**
 * For each record's values, the file ids named in top-level file fields that are not stored files
 * uploaded for that same field of that schema, as issues naming the field and the id (an empty list
 * when all are fine). One store query for all records and fields together. Keeping each file to its
 * field lets a replaced or deleted file be removed once no record of that field points at it.
 */
export async function findFileReferenceIssues(options: FindFileReferenceIssuesOptions): Promise<ErrorIssue[][]> {
  const fileFields = effectiveFields(options.schema).filter((field) => field.type === "file");
  const referencesByRecord = options.records.map((values) => {
    const references: { field: string; id: string }[] = [];
    for (const field of fileFields) {
      const id = values[field.name];
      if (typeof id === "string" && id !== "" && !options.uploadedIds?.has(id)) references.push({ field: field.name, id });
    }
    return references;
  });
  const lookup = [...new Set(referencesByRecord.flat().map((reference) => reference.id))].filter((id) => isValidRecordId(id));
  const found = lookup.length === 0 ? [] : await options.store.findByIds(FILES_COLLECTION, lookup, options.signal ? { signal: options.signal } : {});
  const files = new Map(found.map((record) => [record.id, toStoredFile(record)]));

  return referencesByRecord.map((references) => {
    const issues: ErrorIssue[] = [];
    for (const reference of references) {
      const file = files.get(reference.id);
      if (!file) issues.push({ path: reference.field, message: `no file has the id "${reference.id}"` });
      else if (file.schema !== options.schema.name || file.field !== reference.field) {
        issues.push({ path: reference.field, message: `file "${reference.id}" was uploaded for another field; upload it again for this one` });
      }
    }
    return issues;
  });
}
