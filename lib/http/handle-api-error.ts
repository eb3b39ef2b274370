import { AppError, errorBody, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";

/**
 * Maps any thrown value to the JSON error bodies of DESIGN.md. AppErrors answer with their status and
 * public message; everything else is logged (masked) and answered with a generic 500.
 */
export function handleApiError(error: unknown, context: Record<string, unknown> = {}): Response {
  const appError = isAppError(error) ? error : new AppError("internal", "internal error", { cause: error });
  if (appError.status >= 500) {
    const cause = isAppError(error) ? (error.cause ?? error) : error;
    log.error("request failed", { ...context, code: appError.code, error: cause instanceof Error ? (cause.stack ?? cause.message) : String(cause) });
  }
  return Response.json(errorBody(appError), { status: appError.status, headers: appError.headers });
}
