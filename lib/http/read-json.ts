import { AppError } from "@/lib/errors";

export const DEFAULT_JSON_LIMIT_BYTES = 1_000_000;

/**
 * Reads a JSON request body, counting bytes while streaming (a missing or lying Content-Length does
 * not get past the limit). Empty body → `undefined`.
 */
export async function readJson(request: Request, options: { limitBytes?: number } = {}): Promise<unknown> {
  const limit = options.limitBytes ?? DEFAULT_JSON_LIMIT_BYTES;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new AppError("payload_too_large", `request body is larger than ${limit} bytes`);
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError("payload_too_large", `request body is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "request body is not valid JSON");
  }
}
