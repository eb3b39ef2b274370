import { AppError, type ErrorIssue } from "@/lib/errors";
import { isValidRecordId } from "@/lib/records/record-names";
import type { RecordStore } from "@/lib/records/record-store";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { FILES_COLLECTION, toStoredFile } from "./stored-file";

export interface CheckFileReferencesOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  /** Validated record values (top-level file fields hold a file id or null). */
  values: Record<string, unknown>;
  /** Ids of files uploaded with this very request (stored a moment later; not looked up). */
  uploadedIds?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/**
 * Checks that the file ids a write names in top-level file fields are stored files uploaded for
 * that same field of that schema (422 naming the field and the id otherwise), with one store query
 * whatever the number of fields. Keeping each file to its field lets a replaced or deleted file be
 * removed once no record of that field points at it.
 */
export async function checkFileReferences(options: CheckFileReferencesOptions): Promise<void> {
  const references: { field: string; id: string }[] = [];
  for (const field of effectiveFields(options.schema)) {
    if (field.type !== "file") continue;
    const id = options.values[field.name];
    if (typeof id === "string" && id !== "" && !options.uploadedIds?.has(id)) references.push({ field: field.name, id });
  }
  if (references.length === 0) return;
  const lookup = references.filter((reference) => isValidRecordId(reference.id)).map((reference) => reference.id);
  const found = lookup.length === 0 ? [] : await options.store.findByIds(FILES_COLLECTION, [...new Set(lookup)], options.signal ? { signal: options.signal } : {});
  const files = new Map(found.map((record) => [record.id, toStoredFile(record)]));
  const issues: ErrorIssue[] = [];
  for (const reference of references) {
    const file = files.get(reference.id);
    if (!file) issues.push({ path: reference.field, message: `no file has the id "${reference.id}"` });
    else if (file.schema !== options.schema.name || file.field !== reference.field) {
      issues.push({ path: reference.field, message: `file "${reference.id}" was uploaded for another field; upload it again for this one` });
    }
  }
  const first = issues[0];
  if (first) throw new AppError("validation_failed", `${first.path}: ${first.message}`, { issues, field: first.path });
}
