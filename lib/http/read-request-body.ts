import { AppError } from "@/lib/errors";

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `request body is larger than ${limit} bytes`);
}

/**
 * The request body as bytes, at most `limitBytes` (413 past it): a declared Content-Length over the
 * limit is refused before reading, and otherwise read in one go (HTTP framing ends the body at that
 * length; checked again all the same), which skips the web stream Node's adapters build lazily and at
 * a price; a body without one is counted while streaming and cut off as soon as it passes the limit.
 */
export async function readRequestBody(request: Request, limitBytes: number): Promise<Buffer> {
  // Read before `request.body`, which makes Node's Fetch adapters build the web stream.
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limitBytes) throw tooLarge(limitBytes);
    const bytes = Buffer.from(await request.arrayBuffer());
    if (bytes.byteLength > limitBytes) throw tooLarge(limitBytes);
    return bytes;
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
