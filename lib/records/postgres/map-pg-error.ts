import { AppError, isAppError } from "@/lib/errors";
import { timeoutError } from "../run-with-deadline";
import { StatementAbortedError } from "./sql-executor";

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

function fieldsOf(error: unknown): DriverError {
  return error !== null && typeof error === "object" ? (error as DriverError) : {};
}

export function pgErrorCode(error: unknown): string | undefined {
  const code = fieldsOf(error).code;
  return typeof code === "string" ? code : undefined;
}

/** The table (42P01) or its schema (3F000) does not exist yet: nothing stored in that collection. */
export function isMissingTable(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === "42P01" || code === "3F000";
}

export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === "23505";
}

export function violatedConstraint(error: unknown): string | undefined {
  const constraint = fieldsOf(error).constraint;
  return typeof constraint === "string" ? constraint : undefined;
}

/**
 * Two sessions ran the same CREATE ... IF NOT EXISTS at once and the slower one lost on the system
 * catalog's own unique index (or saw the object appear): the object exists, so retrying succeeds.
 */
export function isConcurrentCreation(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code === "42P07" || code === "42P06" || code === "42710") return true;
  return code === "23505" && (violatedConstraint(error)?.startsWith("pg_") ?? false);
}

const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

/** The pg driver (or PGlite) could not reach the database, or lost it: worth a retry later, not a bug. */
export function isConnectionFailure(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code !== undefined) {
    // 08: connection exception; 28: invalid authorization; 3D000: no such database;
    // 53300: too many connections; 57P01-57P03: server shutting down or starting.
    if (code.startsWith("08") || code.startsWith("28") || code === "3D000" || code === "53300" || /^57P0[123]$/.test(code)) return true;
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
  }
  const message = fieldsOf(error).message;
  return typeof message === "string" && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(message);
}

/**
 * Maps an error from the pg driver or PGlite to an AppError (unique violations are mapped by the
 * store, which knows the field). Driver text never reaches the message; it stays in `cause` for
 * the server log.
 */
export function mapPgError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof StatementAbortedError || pgErrorCode(error) === "57014") return timeoutError();
  if (isConnectionFailure(error)) return new AppError("unavailable", "the database is unavailable", { cause: error });
  return new AppError("internal", "the database query failed", { cause: error });
}
