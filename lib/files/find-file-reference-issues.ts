import type { ErrorIssue } from "@/lib/errors";
import { isValidRecordId } from "@/lib/records/record-names";
import type { RecordStore } from "@/lib/records/record-store";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { collectNestedFileValues, componentsByName } from "./collect-nested-file-values";
import { FILES_COLLECTION, toStoredFile } from "./stored-file";

export interface FindFileReferenceIssuesOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  /** Validated values, one object per record (top-level file fields hold a file id or null). */
  records: readonly Record<string, unknown>[];
  /** Ids of files uploaded with this very request (stored a moment later; not looked up). */
  uploadedIds?: ReadonlySet<string>;
  /** The project's schemas: given, file ids inside components and dynamic-zone entries are checked too. */
  components?: readonly SchemaDefinition[];
  /** The id of the record each values object is written to, in the same order (unknown: null, as for a new record). */
  owners?: readonly (string | null)[];
  signal?: AbortSignal;
}

interface Reference {
  path: string;
  id: string;
  /** Nested references: the path without list positions. */
  key?: string;
}

/**
 * For each record's values, the file ids it may not hold, as issues naming the path and the id (an
 * empty list when all are fine). One store query for all records and fields together.
 * - Top-level file fields: the id must name a stored file uploaded for that same field of that
 *   schema. Keeping each file to its field lets a replaced or deleted file be removed once no
 *   record of that field points at it.
 * - File fields inside components and dynamic-zone entries (when `components` are given): an id of
 *   a file uploaded into a component belongs to its record and may only stay there, at the same
 *   field (moving with its entry); other ids are taken as before nested uploads existed.
 */
export async function findFileReferenceIssues(options: FindFileReferenceIssuesOptions): Promise<ErrorIssue[][]> {
  const fileFields = effectiveFields(options.schema).filter((field) => field.type === "file");
  const components = options.components ? componentsByName(options.components) : null;
  const referencesByRecord = options.records.map((values) => {
    const references: Reference[] = [];
    for (const field of fileFields) {
      const id = values[field.name];
      if (typeof id === "string" && id !== "" && !options.uploadedIds?.has(id)) references.push({ path: field.name, id });
    }
    if (components) {
      for (const nested of collectNestedFileValues(options.schema, components, values)) {
        if (!options.uploadedIds?.has(nested.id)) references.push(nested);
      }
    }
    return references;
  });
  const lookup = [...new Set(referencesByRecord.flat().map((reference) => reference.id))].filter((id) => isValidRecordId(id));
  const found = lookup.length === 0 ? [] : await options.store.findByIds(FILES_COLLECTION, lookup, options.signal ? { signal: options.signal } : {});
  const files = new Map(found.map((record) => [record.id, toStoredFile(record)]));

  return referencesByRecord.map((references, index) => {
    const issues: ErrorIssue[] = [];
    for (const reference of references) {
      const file = files.get(reference.id);
      if (reference.key !== undefined) {
        const owner = options.owners?.[index] ?? null;
        if (file?.record && (file.record !== owner || file.schema !== options.schema.name || file.field !== reference.key)) {
          issues.push({ path: reference.path, message: `file "${reference.id}" belongs to another record or field; upload it again for this one` });
        }
      } else if (!file) issues.push({ path: reference.path, message: `no file has the id "${reference.id}"` });
      else if (file.schema !== options.schema.name || file.field !== reference.path) {
        issues.push({ path: reference.path, message: `file "${reference.id}" was uploaded for another field; upload it again for this one` });
      }
    }
    return issues;
  });
}
