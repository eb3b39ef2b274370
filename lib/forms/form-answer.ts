import { AppError, errorBody } from "@/lib/errors";
import { INVOCATION_SECURITY_HEADERS } from "@/lib/http/security-headers";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Headers every answer of the public form intake ends with: never stored by a cache (answers carry
 * submission ids), and the invocation sandbox (lib/http/security-headers.ts), spread last so
 * nothing before them can replace them.
 */
export const FORM_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "cache-control": "no-store", ...INVOCATION_SECURITY_HEADERS });

/** A JSON answer of the form intake. Values are only ever JSON-encoded here, never put into HTML. */
export function formJsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers, ...FORM_ANSWER_HEADERS } });
}

/** One body for an unknown project, an unknown form and a disabled one: nothing reveals which. */
export function formNotFound(): Response {
  return formJsonAnswer(404, errorBody(new AppError("not_found", "not found")));
}
