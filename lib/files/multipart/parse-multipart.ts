import { AppError } from "@/lib/errors";

/** What a part says about itself before its content arrives. */
export interface MultipartPartHead {
  name: string;
  /** null for text fields; "" when a browser sent an empty file input. */
  filename: string | null;
  /** The part's Content-Type header, or null. */
  contentType: string | null;
}

export interface MultipartPart extends MultipartPartHead {
  data: Buffer;
}

/**
 * How the caller wants a part read: as a file with its own byte limit, or as text counted against
 * the request's shared text budget. Throw an AppError to refuse the part before any of its content
 * is buffered.
 */
export type PartPlan = { kind: "file"; maxBytes: number } | { kind: "text" };

export interface MultipartLimits {
  planPart(head: MultipartPartHead): PartPlan;
  /** The whole body, framing included. */
  maxTotalBytes: number;
  /** All text parts together. */
  maxTextBytes: number;
  maxParts: number;
  maxHeaderBytes: number;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const BOUNDARY_CHARS = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary of a `multipart/form-data; boundary=...` content type, or null when there is none. */
export function multipartBoundary(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary && BOUNDARY_CHARS.test(boundary) ? boundary : null;
}

function malformed(message: string): AppError {
  return new AppError("bad_request", `malformed multipart body: ${message}`);
}

/** Parameters of a header value: `form-data; name="a"; filename*=UTF-8''b%20c`. Quoted strings may escape `"` and `\`. */
function headerParameters(value: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = match[1]!.toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : (match[3] ?? "").trim();
    if (!parameters.has(key)) parameters.set(key, raw);
  }
  return parameters;
}

function decodeExtendedValue(value: string): string | null {
  const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(value);
  if (!match || match[1]!.toLowerCase() !== "utf-8") return null;
  try {
    return decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
}

function parsePartHead(block: Buffer): MultipartPartHead {
  // Browsers send UTF-8 names and filenames as raw bytes.
  const lines = block.toString("utf8").split("\r\n");
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw malformed("a part header has no name");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw malformed("every part needs Content-Disposition: form-data");
  const parameters = headerParameters(disposition);
  const name = parameters.get("name");
  if (name === undefined || name === "") throw malformed("every part needs a name");
  const extended = parameters.get("filename*");
  const filename = (extended === undefined ? null : decodeExtendedValue(extended)) ?? parameters.get("filename") ?? null;
  return { name, filename, contentType };
}

/**
 * Reads a `multipart/form-data` body as it streams, holding no more than each part's own limit
 * (plus one network chunk): a file over its limit, text over the shared text budget or a body over
 * `maxTotalBytes` stops the upload at once with 413, before the rest is read. Parts come back in
 * order with their contents.
 */
export async function parseMultipart(body: ReadableStream<Uint8Array> | null, boundary: string, limits: MultipartLimits): Promise<MultipartPart[]> {
  if (!body) throw malformed("the body is empty");
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];
  // A leading CRLF lets the first boundary (which may open the body) match the same delimiter as the others.
  let buffer: Buffer = Buffer.from(CRLF);
  // Declared wide: the closures below change it, which narrowing cannot see.
  let state = "preamble" as "preamble" | "boundary" | "headers" | "body" | "done";
  let total = 0;
  let textBytes = 0;
  let head: MultipartPartHead | null = null;
  let plan: PartPlan = { kind: "text" };
  let chunks: Buffer[] = [];
  let size = 0;

  const append = (bytes: Buffer) => {
    if (bytes.length === 0 || !head) return;
    size += bytes.length;
    if (plan.kind === "file" && size > plan.maxBytes) {
      throw new AppError("payload_too_large", `file "${head.name}" is larger than ${plan.maxBytes} bytes`, {
        issues: [{ path: head.name, message: `must be at most ${plan.maxBytes} bytes` }],
      });
    }
    if (plan.kind === "text") {
      textBytes += bytes.length;
      if (textBytes > limits.maxTextBytes) throw new AppError("payload_too_large", `the text fields are larger than ${limits.maxTextBytes} bytes together`);
    }
    chunks.push(bytes);
  };

  const advance = (): boolean => {
    switch (state) {
      case "preamble": {
        const at = buffer.indexOf(delimiter);
        if (at === -1) {
          buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length + 1));
          return false;
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = "boundary";
        return true;
      }
      case "boundary": {
        if (buffer.length < 2) return false;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          state = "done";
          return false;
        }
        const lineEnd = buffer.indexOf(CRLF);
        if (lineEnd === -1) {
          if (buffer.length > 256) throw malformed("a boundary line does not end");
          return false;
        }
        // RFC 2046 allows transport padding (spaces, tabs) after a boundary.
        if (!/^[ \t]*$/.test(buffer.subarray(0, lineEnd).toString("latin1"))) throw malformed("unexpected text after a boundary");
        buffer = buffer.subarray(lineEnd + 2);
        state = "headers";
        return true;
      }
      case "headers": {
        const end = buffer.indexOf(HEADER_END);
        if (end === -1) {
          if (buffer.length > limits.maxHeaderBytes) throw malformed(`part headers are larger than ${limits.maxHeaderBytes} bytes`);
          return false;
        }
        if (end > limits.maxHeaderBytes) throw malformed(`part headers are larger than ${limits.maxHeaderBytes} bytes`);
        if (parts.length >= limits.maxParts) throw new AppError("payload_too_large", `a request holds at most ${limits.maxParts} parts`);
        head = parsePartHead(buffer.subarray(0, end));
        plan = limits.planPart(head);
        chunks = [];
        size = 0;
        buffer = buffer.subarray(end + HEADER_END.length);
        state = "body";
        return true;
      }
      case "body": {
        const at = buffer.indexOf(delimiter);
        if (at === -1) {
          // Keep what could be the start of the delimiter; the rest is content.
          const safe = buffer.length - delimiter.length + 1;
          if (safe > 0) {
            append(Buffer.from(buffer.subarray(0, safe)));
            buffer = buffer.subarray(safe);
          }
          return false;
        }
        append(Buffer.from(buffer.subarray(0, at)));
        parts.push({ ...head!, data: Buffer.concat(chunks, size) });
        head = null;
        chunks = [];
        buffer = buffer.subarray(at + delimiter.length);
        state = "boundary";
        return true;
      }
      case "done":
        return false;
    }
  };

  const reader = body.getReader();
  try {
    while (state !== "done") {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxTotalBytes) throw new AppError("payload_too_large", `request body is larger than ${limits.maxTotalBytes} bytes`);
      buffer = buffer.length === 0 ? Buffer.from(value) : Buffer.concat([buffer, value]);
      while (advance()) {
        // each step consumes input; stops when more input is needed
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  if (state !== "done") {
    await reader.cancel().catch(() => undefined);
    throw malformed("the body ends before the closing boundary");
  }
  // The epilogue after the closing boundary is ignored.
  await reader.cancel().catch(() => undefined);
  return parts;
}
