/**
 * The one error class of the platform. Every failure a caller may see is an AppError with a code
 * from a closed set; the code decides the HTTP status. Anything else is an internal error that is
 * logged and answered with a generic 500 that reveals nothing.
 */
export const ERROR_CODES = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unique_violation: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorIssue {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  issues?: ErrorIssue[];
  /** For unique violations: the field whose value is taken. */
  field?: string;
  /** Headers the HTTP layer adds to the answer (Retry-After, ...). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * Marks AppError instances so that isAppError recognises them across module instances: the
 * production server and Next.js' route bundles each load their own copy of this file, and a
 * record store opened by one throws errors the other's `instanceof` does not know.
 */
const APP_ERROR_BRAND = Symbol.for("flowpoint.AppError");

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: ErrorIssue[];
  readonly field?: string;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CODES[code];
    this.issues = options.issues;
    this.field = options.field;
    this.headers = options.headers;
    Object.defineProperty(this, APP_ERROR_BRAND, { value: true });
  }

  /** Server-side failures keep their message in the logs only. */
  get isPublic(): boolean {
    return this.status < 500 || this.code === "unavailable" || this.code === "timeout";
  }
}

/** True for an AppError from any copy of this module (brand and a known code), not only this one's class. */
export function isAppError(error: unknown): error is AppError {
  if (error instanceof AppError) return true;
  if (error === null || typeof error !== "object") return false;
  const candidate = error as { [APP_ERROR_BRAND]?: unknown; code?: unknown };
  return candidate[APP_ERROR_BRAND] === true && typeof candidate.code === "string" && Object.hasOwn(ERROR_CODES, candidate.code);
}

export function validationError(message: string, issues: ErrorIssue[]): AppError {
  return new AppError("validation_failed", message, { issues });
}

/** Turns zod issues into the public `{path, message}` shape (`steps.2.limit`). */
export function issuesFromZod(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }, prefix = ""): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}

/** The JSON error body of the platform's own APIs (management, records, end-user auth, form intake). */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  issues?: ErrorIssue[];
  field?: string;
}

/** `{"error": "<message>", "code": "<code>", "issues": [...], "field": "..."}`; server-side messages stay in the logs. */
export function errorBody(error: AppError): ErrorBody {
  return { error: publicMessage(error), code: error.code, ...errorDetails(error) };
}

/** The error body of a custom endpoint call: exactly the specification's, `{"error", "issues"?}` with no code. */
export type InvocationErrorBody = Omit<ErrorBody, "code">;

/**
 * The body a custom endpoint call (lib/endpoints/invoke) is refused with (401, 403, 413, 429, ...).
 * The specification fixes the invocation's error bodies (docs/SPEC.md "Errors", docs/DESIGN.md "Invocation
 * errors"), so these stay `{"error": "..."}` without the `code` of errorBody.
 */
export function invocationErrorBody(error: AppError): InvocationErrorBody {
  return { error: publicMessage(error), ...errorDetails(error) };
}

function publicMessage(error: AppError): string {
  return error.isPublic ? error.message : "internal error";
}

/** `issues` and `field`, each only when there is one. */
function errorDetails(error: AppError): Pick<ErrorBody, "issues" | "field"> {
  const details: Pick<ErrorBody, "issues" | "field"> = {};
  if (error.issues?.length) details.issues = error.issues;
  if (error.field) details.field = error.field;
  return details;
}
