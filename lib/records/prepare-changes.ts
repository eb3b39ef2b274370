import { AppError } from "@/lib/errors";
import { normalizeDocument } from "./normalize-document";
import { SYSTEM_FIELDS } from "./record-names";

/**
 * The fields an update merges into a record (shallow: each top-level field is replaced whole),
 * checked and copied, plus the new updatedAt. System fields cannot be changed.
 */
export function prepareChanges(changes: unknown, now: Date): Record<string, unknown> & { updatedAt: string } {
  const fields = normalizeDocument(changes, "changes");
  const issues = [...SYSTEM_FIELDS, "_id"]
    .filter((name) => fields[name] !== undefined)
    .map((name) => ({ path: name, message: name === "_id" ? "is reserved" : "is set by the store" }));
  if (issues.length) throw new AppError("validation_failed", "the changes cannot be stored", { issues });
  return { ...fields, updatedAt: now.toISOString() };
}
