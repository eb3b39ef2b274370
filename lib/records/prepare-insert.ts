import { AppError, isAppError, validationError, type ErrorIssue } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { isValidRecordId } from "./record-names";
import { normalizeDocument } from "./normalize-document";
import { withSystemFields } from "./order-stored-records";
import type { StoredRecord } from "./record-store";

/**
 * The record as it will be stored: the caller's fields checked and copied, `id` kept (or assigned
 * with newId("record")), createdAt = updatedAt = now. createdAt, updatedAt and `_id` are the
 * store's to set, so a document that carries them is refused rather than silently changed.
 */
export function prepareInsert(document: unknown, now: Date): StoredRecord {
  const fields = normalizeDocument(document);
  const id = fields.id;
  const issues = [];
  if (id !== undefined && !isValidRecordId(id)) issues.push({ path: "id", message: "must be 1-128 letters, digits, underscores or dashes" });
  if (fields.createdAt !== undefined) issues.push({ path: "createdAt", message: "is set by the store" });
  if (fields.updatedAt !== undefined) issues.push({ path: "updatedAt", message: "is set by the store" });
  if (fields._id !== undefined) issues.push({ path: "_id", message: "is reserved" });
  if (issues.length) throw new AppError("validation_failed", "the document cannot be stored", { issues });
  const timestamp = now.toISOString();
  return withSystemFields(fields, (id as string | undefined) ?? newId("record"), timestamp, timestamp);
}

export const MAX_DOCUMENTS_PER_INSERT = 1000;

/** prepareInsert for a batch: every document is checked first, issues name the document's index. */
export function prepareInsertMany(documents: unknown, now: Date): StoredRecord[] {
  if (!Array.isArray(documents)) throw validationError("documents must be an array", [{ path: "", message: "must be an array" }]);
  if (documents.length > MAX_DOCUMENTS_PER_INSERT) {
    throw validationError(`at most ${MAX_DOCUMENTS_PER_INSERT} documents can be inserted at once`, [
      { path: "", message: `must hold at most ${MAX_DOCUMENTS_PER_INSERT} documents` },
    ]);
  }
  const records: StoredRecord[] = [];
  const issues: ErrorIssue[] = [];
  documents.forEach((document, index) => {
    try {
      records.push(prepareInsert(document, now));
    } catch (error) {
      if (!isAppError(error) || error.code !== "validation_failed") throw error;
      for (const issue of error.issues ?? [{ path: "", message: error.message }]) {
        issues.push({ path: issue.path ? `${index}.${issue.path}` : String(index), message: issue.message });
      }
    }
  });
  if (issues.length) throw validationError("some documents cannot be stored", issues);
  return records;
}
