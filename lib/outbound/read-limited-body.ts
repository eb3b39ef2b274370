import { pipeline, Readable, type Transform } from "node:stream";
import zlib from "node:zlib";
import { AppError, isAppError } from "@/lib/errors";

export interface LimitedBody {
  bytes: Buffer;
  /** True when the body (after decompression) was longer than the cap and reading stopped there. */
  truncated: boolean;
}

/** The encodings undone before the cap is applied; anything else is refused rather than passed on as garbage. */
export const SUPPORTED_ENCODINGS = ["gzip", "x-gzip", "deflate", "br"] as const;

function unsupportedEncoding(encoding: string): AppError {
  return new AppError("unavailable", `outbound response uses an unsupported content encoding (${encoding.slice(0, 40)})`);
}

function decoderFor(encoding: string, firstChunk: Buffer): Transform {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      // "deflate" should be zlib-wrapped, but some servers send raw deflate: a zlib header has CM = 8.
      return ((firstChunk[0] ?? 0) & 0x0f) === 0x08 ? zlib.createInflate() : zlib.createInflateRaw();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      throw unsupportedEncoding(encoding);
  }
}

async function* prepend(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield first;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await rest.return?.();
  }
}

/**
 * Undoes one content encoding, pulling input only as fast as the consumer reads output, so a
 * decompression bomb never inflates further than the consumer asked for.
 */
async function* decode(source: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const decoder = decoderFor(encoding, first.value);
  const input = Readable.from(prepend(first.value, iterator), { objectMode: false });
  let inputError: unknown;
  input.once("error", (error) => {
    inputError = error;
  });
  pipeline(input, decoder, () => {
    // Errors surface through the decoder's iterator below; stopping early is not an error.
  });
  try {
    for await (const chunk of decoder) yield chunk as Buffer;
  } catch (error) {
    // A failing connection reaches the decoder too; only the decoder's own errors are bad data.
    if (error === inputError || isAppError(error)) throw error;
    throw new AppError("unavailable", `outbound response could not be decompressed (invalid ${encoding} data)`, { cause: error });
  } finally {
    decoder.destroy();
    input.destroy();
  }
}

/** Content-Encoding values in the order they must be undone (the last applied first). */
export function parseContentEncoding(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value !== "" && value !== "identity")
    .reverse();
}

/**
 * Reads at most `maxBytes` of a response body after undoing its content encodings, then stops reading
 * (the caller closes the connection). Memory stays bounded by the cap plus one decoder chunk.
 */
export async function readLimitedBody(body: AsyncIterable<Buffer>, options: { contentEncoding?: string; maxBytes: number }): Promise<LimitedBody> {
  let stream: AsyncIterable<Buffer> = body;
  for (const encoding of parseContentEncoding(options.contentEncoding)) {
    // Checked up front so an unsupported encoding fails even when the body is empty.
    if (!(SUPPORTED_ENCODINGS as readonly string[]).includes(encoding)) throw unsupportedEncoding(encoding);
    stream = decode(stream, encoding);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (chunk.length === 0) continue;
    const room = options.maxBytes - size;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += room;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks, size), truncated };
}
