import { AppError } from "@/lib/errors";
import { readJson } from "@/lib/http/read-json";

export const MAX_INVOCATION_BODY_BYTES = 100 * 1024;

/** The JSON body as sent (≤ 100 KB, counted while streaming), any JSON value; undefined when there is none. */
export async function readInvocationJson(request: Request): Promise<unknown> {
  return readJson(request, { limitBytes: MAX_INVOCATION_BODY_BYTES });
}

/** A JSON object body (≤ 100 KB, counted while streaming); no body reads as {}. */
export async function readInvocationBody(request: Request): Promise<Record<string, unknown>> {
  const body = await readInvocationJson(request);
  if (body === undefined) return {};
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new AppError("bad_request", "request body must be a JSON object");
  return body as Record<string, unknown>;
}

/** Query parameters as the context exposes them: a repeated parameter becomes an array. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    if (name === "__proto__") continue;
    const existing = query[name];
    query[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}
