import { isAppError, type AppError } from "@/lib/errors";
import { log, type LogFields } from "@/lib/log";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id";

/**
 * Logs a request that is answered with a 5xx, once, with its request id, and returns the header
 * that hands the id to the caller (who can quote it). Only the layers that turn an error into an
 * answer call it: handleApiError (management, records and end-user routes), the invocation core and
 * the form intake. Code below them throws instead of logging, so one failure is one log line.
 */
export function logServerError(message: string, request: Request, answered: AppError, thrown: unknown, fields: LogFields = {}): Record<string, string> {
  const requestId = requestIdOf(request);
  const cause = isAppError(thrown) ? (thrown.cause ?? thrown) : thrown;
  log.error(message, {
    requestId,
    method: request.method,
    route: new URL(request.url).pathname,
    ...fields,
    code: answered.code,
    error: cause,
  });
  return { [REQUEST_ID_HEADER]: requestId };
}
