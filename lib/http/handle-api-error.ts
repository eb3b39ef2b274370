import { errorBody } from "@/lib/errors";
import { answerableError } from "./answerable-error";
import { logServerError } from "./log-server-error";

/**
 * Maps any thrown value to the JSON error body of the platform's APIs (lib/errors.ts errorBody:
 * `{"error", "code", "issues"?}`). AppErrors answer with their status and public message; a
 * database out of reach with 503, everything else with a generic 500 (answerable-error.ts). A
 * 5xx is logged here, once, with the request id, which its answer carries in `X-Request-Id`
 * (lib/http/log-server-error.ts).
 */
export function handleApiError(error: unknown, request: Request): Response {
  const appError = answerableError(error);
  const logged = appError.status >= 500 ? logServerError("request failed", request, appError, error) : {};
  return Response.json(errorBody(appError), { status: appError.status, headers: { ...appError.headers, ...logged } });
}
