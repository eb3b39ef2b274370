import { AppError, isAppError } from "@/lib/errors";
import { timeoutError } from "../run-with-deadline";
import { fieldFromIndexName } from "./index-spec";

interface DriverError {
  name?: unknown;
  code?: unknown;
  codeName?: unknown;
  message?: unknown;
  keyPattern?: unknown;
  keyValue?: unknown;
}

const UNAVAILABLE_ERRORS = new Set([
  "MongoServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoClientClosedError",
  "MongoServerClosedError",
]);

/** Server codes for "cannot reach or use the database": auth failed, not authorized, shutting down. */
const UNAVAILABLE_CODES = new Set([6, 7, 13, 18, 89, 91, 189, 9001, 11600, 11602]);

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function objectKeys(value: unknown): string[] {
  return value !== null && typeof value === "object" ? Object.keys(value) : [];
}

/** The field of a duplicate key error: keyPattern, else keyValue, else the index name in the message. */
export function duplicateKeyField(error: DriverError): string | undefined {
  const key = objectKeys(error.keyPattern)[0] ?? objectKeys(error.keyValue)[0];
  if (key !== undefined) return key === "_id" ? "id" : key;
  const index = typeof error.message === "string" ? /index: (\S+) dup key/.exec(error.message)?.[1] : undefined;
  return index ? fieldFromIndexName(index) : undefined;
}

function isDuplicateKey(error: DriverError): boolean {
  return error.code === 11000 || error.code === 11001 || (typeof error.message === "string" && error.message.startsWith("E11000"));
}

export interface MongoErrorContext {
  /** Set while creating a unique index: a duplicate key then means existing duplicates. */
  creatingIndexOn?: string;
}

/**
 * Maps a MongoDB driver error to an AppError. Driver text never reaches the message; it stays in
 * `cause` for the server log.
 */
export function mapMongoError(error: unknown, context: MongoErrorContext = {}): AppError {
  if (isAppError(error)) return error;
  const driver: DriverError = error !== null && typeof error === "object" ? (error as DriverError) : {};
  if (isDuplicateKey(driver)) {
    if (context.creatingIndexOn !== undefined) {
      const field = context.creatingIndexOn;
      const value = driver.keyValue !== null && typeof driver.keyValue === "object" ? (driver.keyValue as Record<string, unknown>)[field] : undefined;
      const which = value === undefined ? "some value" : `the value ${describeValue(value)}`;
      return new AppError("unique_violation", `"${field}" cannot be made unique: ${which} is used by more than one record`, { field, cause: error });
    }
    const field = duplicateKeyField(driver);
    const message = field ? `"${field}" must be unique: another record already has this value` : "another record already has this value";
    return new AppError("unique_violation", message, { field, cause: error });
  }
  if (driver.code === 50 || driver.codeName === "MaxTimeMSExpired" || driver.name === "MongoOperationTimeoutError" || driver.name === "AbortError") {
    return timeoutError();
  }
  if ((typeof driver.name === "string" && UNAVAILABLE_ERRORS.has(driver.name)) || (typeof driver.code === "number" && UNAVAILABLE_CODES.has(driver.code))) {
    return new AppError("unavailable", "the database is unavailable", { cause: error });
  }
  if (driver.code === 85 || driver.code === 86) {
    return new AppError("conflict", "an index on this field already exists with other options", { cause: error });
  }
  return new AppError("internal", "the database operation failed", { cause: error });
}

/** Index or collection already gone: dropping it again is not an error. */
export function isAlreadyGone(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === 26 || code === 27;
}

/**
 * Another client is creating the same collection or index right now (IndexBuildAlreadyInProgress,
 * NamespaceExists, WriteConflict): trying again finds it done.
 */
export function isConcurrentIndexBuild(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === 276 || code === 48 || code === 112;
}
