import { AppError, isAppError } from "@/lib/errors";

/**
 * Rethrows a store's unique violation as the records API's 409: it names the field and, when the
 * value is short and plain, the value that is already taken. Other errors pass through unchanged.
 */
export function rethrowUniqueViolation(error: unknown, schemaName: string, values: Record<string, unknown>): never {
  if (!isAppError(error) || error.code !== "unique_violation" || !error.field) throw error;
  const field = error.field;
  const value = values[field];
  const shown = (typeof value === "string" && value.length <= 200) || typeof value === "number" ? ` ${JSON.stringify(value)}` : "";
  const message = `${field}${shown} is already used by another ${schemaName} record (${field} must be unique)`;
  throw new AppError("unique_violation", message, { field, issues: [{ path: field, message: "must be unique: another record already has this value" }], cause: error });
}
