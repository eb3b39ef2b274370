import { AppError } from "@/lib/errors";

export const DEFAULT_JSON_LIMIT_BYTES = 1_000_000;

/**
 * Reads a JSON request body within a byte limit: a declared Content-Length over it is refused
 * before reading, and a body without one is counted while streaming. Empty body → `undefined`.
 */
export async function readJson(request: Request, options: { limitBytes?: number } = {}): Promise<unknown> {
  const limit = options.limitBytes ?? DEFAULT_JSON_LIMIT_BYTES;
  // Read before `request.body`, which makes Node's Fetch adapters build the web stream.
  const declared = request.headers.get("content-length");
  if (declared !== null) return parseJson(await readDeclaredLength(request, Number(declared), limit));
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
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return parseJson(Buffer.concat(chunks));
}

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `request body is larger than ${limit} bytes`);
}

/**
 * A body with a declared length is refused before reading when that is over the limit, and
 * otherwise read in one go: HTTP framing ends the body at that length, so it cannot grow past the
 * limit (checked again all the same). This skips the web stream, which Node's adapters build
 * lazily and at a price.
 */
async function readDeclaredLength(request: Request, declared: number, limit: number): Promise<Buffer> {
  if (declared > limit) throw tooLarge(limit);
  const bytes = Buffer.from(await request.arrayBuffer());
  if (bytes.byteLength > limit) throw tooLarge(limit);
  return bytes;
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch {
    throw new AppError("bad_request", "request body is not valid JSON");
  }
}
