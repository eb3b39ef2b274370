import { AppError } from "@/lib/errors";
import { readRequestBody } from "./read-request-body";

export const DEFAULT_JSON_LIMIT_BYTES = 1_000_000;

/**
 * Reads a JSON request body within a byte limit (lib/http/read-request-body.ts). Empty body →
 * `undefined`; anything but JSON → 400.
 */
export async function readJson(request: Request, options: { limitBytes?: number } = {}): Promise<unknown> {
  return parseJson(await readRequestBody(request, options.limitBytes ?? DEFAULT_JSON_LIMIT_BYTES));
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    throw new AppError("bad_request", "request body is not valid JSON");
  }
}
