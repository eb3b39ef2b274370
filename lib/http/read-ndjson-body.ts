import { AppError } from "@/lib/errors";

const NDJSON_TYPE = /^application\/x-ndjson\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/**
 * An NDJSON request body (`Content-Type: application/x-ndjson`, UTF-8) as its chunks arrive, for
 * bodies too large to hold: nothing is buffered here, and the stream is read only as fast as the
 * caller consumes it (the client's upload waits meanwhile). Stopping early (a `break`, a throw)
 * cancels the rest of the body. Any other content type or charset: 415, before anything is read.
 */
export function readNdjsonBody(request: Request): AsyncIterable<Uint8Array> {
  const contentType = request.headers.get("content-type")?.trim() ?? "";
  if (!NDJSON_TYPE.test(contentType)) throw new AppError("unsupported_media_type", "send the records as application/x-ndjson: one JSON object per line");
  const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") throw new AppError("unsupported_media_type", "NDJSON must be UTF-8");
  return chunksOf(request.body);
}

async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
}
