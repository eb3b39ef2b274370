import { Client, errors as undiciErrors } from "undici";
import { AppError, isAppError } from "@/lib/errors";
import { assertPublicDestination, type CheckedDestination, type HostLookup } from "./assert-public-destination";
import { type BeforeConnect, pinnedConnector } from "./pinned-connector";
import { readLimitedBody } from "./read-limited-body";

// Callers that open their own connections (the database "Test connection") check here and connect to the returned address.
export { assertPublicDestination, type CheckedDestination, type DestinationCheckOptions, type HostLookup, type ResolvedAddress } from "./assert-public-destination";
export type { BeforeConnect, ConnectTarget } from "./pinned-connector";

/** 10 s outbound timeout and 256 KB captured response (docs/DESIGN.md §6). */
export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_BYTES = 262_144;

export const OUTBOUND_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type OutboundMethod = (typeof OUTBOUND_METHODS)[number];

export interface SafeFetchOptions {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborting it ends the request with a `timeout` AppError ("aborted"). */
  signal?: AbortSignal;
  /** Whole request: DNS, connect, headers and body. */
  timeoutMs?: number;
  /** Cap on the response body after decompression. */
  maxBytes?: number;
  /** Resolver seam: tests simulate DNS answers (rebinding) with it. Production uses the system resolver. */
  lookup?: HostLookup;
  /** Observes (and may veto by throwing) each socket about to be opened; for logs and tests. */
  beforeConnect?: BeforeConnect;
}

export interface SafeFetchResult {
  status: number;
  /** 200–299. A non-2xx answer is data, not an error. */
  ok: boolean;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON for a complete application/json (or +json) reply that parses; otherwise the text. */
  body: unknown;
  /** True when the body was cut at `maxBytes` (then it is always text, never parsed). */
  truncated: boolean;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// The URL decides the host; framing headers are the client's job, and a wrong one would desync the connection.
const REFUSED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "expect", "proxy-connection"]);

function refused(detail: string): AppError {
  return new AppError("validation_failed", `outbound request refused: ${detail}`);
}

function parseTarget(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw refused("not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refused(`the ${url.protocol.replace(/:$/, "")} scheme is not allowed (only http and https)`);
  }
  if (url.username || url.password) throw refused("credentials in the URL are not allowed; send an Authorization header");
  return url;
}

function checkMethod(method: string | undefined): OutboundMethod {
  const upper = (method ?? "GET").toUpperCase();
  if (!(OUTBOUND_METHODS as readonly string[]).includes(upper)) throw refused(`method ${JSON.stringify(method).slice(0, 40)} is not allowed`);
  return upper as OutboundMethod;
}

function checkHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const shownName = JSON.stringify(name.slice(0, 60));
    if (!TOKEN.test(name)) throw refused(`header name ${shownName} is not valid`);
    if (typeof value !== "string") throw refused(`header ${shownName} must be a string`);
    if (/[\r\n\0]/.test(value)) throw refused(`header ${shownName} contains a line break`);
    const lower = name.toLowerCase();
    if (REFUSED_HEADERS.has(lower)) throw refused(`header ${shownName} is set by the client, not the request`);
    checked[lower] = value;
  }
  checked["user-agent"] ??= "flowpoint-outbound/1";
  checked["accept-encoding"] ??= "gzip, deflate, br";
  return checked;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function decodeText(bytes: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

function isJsonType(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

function parseBody(text: string, contentType: string | undefined, truncated: boolean): unknown {
  if (truncated || !isJsonType(contentType) || text.trim() === "") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const TLS_CODES = /CERT|SELF_SIGNED|TLS|SSL|ERR_SSL/i;

/** Maps a transport failure to a safe public error; the original stays in `cause` (logs only). */
function transportError(error: unknown, host: string): AppError {
  if (isAppError(error)) return error;
  const code = String((error as { code?: unknown })?.code ?? "");
  const fail = (detail: string) => new AppError("unavailable", `outbound request to ${host} failed: ${detail}`, { cause: error });
  if (error instanceof undiciErrors.ConnectTimeoutError || code === "ETIMEDOUT") {
    return new AppError("timeout", `outbound request to ${host} timed out while connecting`, { cause: error });
  }
  if (error instanceof undiciErrors.InvalidArgumentError) return new AppError("validation_failed", "outbound request refused: the request is not valid", { cause: error });
  if (code === "ECONNREFUSED") return fail("connection refused");
  if (code === "ECONNRESET" || code === "EPIPE" || error instanceof undiciErrors.SocketError) return fail("the connection was closed");
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return fail("host unreachable");
  if (error instanceof undiciErrors.HTTPParserError) return fail("the response was cut off or is not valid HTTP");
  if (TLS_CODES.test(code)) return fail("the TLS certificate was not accepted (untrusted, expired or for another host)");
  return fail("connection error");
}

/**
 * The only way to reach the network from a flow, a webhook or any other outbound call.
 *
 * Refuses (AppError `validation_failed`, before any connection) non-http(s) schemes, credentials in the
 * URL, CR/LF in headers and every non-public destination — literal IPs in any spelling and host names
 * whose DNS answer contains any non-public address — unless OUTBOUND_ALLOWED_HOSTS names the exact
 * host[:port]. It connects to the address it checked (never re-resolving), never follows redirects (a 3xx
 * is the result, with its `location` header), gives up after `timeoutMs` (AppError `timeout`, also when
 * `signal` aborts) and reads at most `maxBytes` of the body after decompression (`truncated: true`).
 * Connection failures are AppError `unavailable` with a message that names only the host.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const url = parseTarget(input);
  const method = checkMethod(options.method);
  const headers = checkHeaders(options.headers);
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? OUTBOUND_MAX_BYTES;
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const hostForMessages = url.hostname;

  const controller = new AbortController();
  let stoppedBy: "timeout" | "caller" | null = null;
  const timer = setTimeout(() => {
    stoppedBy ??= "timeout";
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => {
    stoppedBy ??= "caller";
    controller.abort();
  };
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener("abort", onCallerAbort, { once: true });

  let client: Client | undefined;
  try {
    const destination: CheckedDestination = await assertPublicDestination(url.hostname, port, {
      lookup: options.lookup,
      signal: controller.signal,
    });
    client = new Client(url.origin, {
      connect: pinnedConnector(destination, { timeoutMs, beforeConnect: options.beforeConnect }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      pipelining: 0,
    });
    const response = await client.request({
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      body: options.body,
      signal: controller.signal,
    });
    const responseHeaders = flattenHeaders(response.headers);
    const { bytes, truncated } = await readLimitedBody(response.body, {
      contentEncoding: responseHeaders["content-encoding"],
      maxBytes,
    });
    response.body.destroy();
    const contentType = responseHeaders["content-type"];
    return {
      status: response.statusCode,
      ok: response.statusCode >= 200 && response.statusCode < 300,
      headers: responseHeaders,
      body: parseBody(decodeText(bytes, contentType), contentType, truncated),
      truncated,
    };
  } catch (error) {
    if (stoppedBy === "timeout") throw new AppError("timeout", `outbound request to ${hostForMessages} timed out after ${timeoutMs} ms`, { cause: error });
    if (stoppedBy === "caller") throw new AppError("timeout", `outbound request to ${hostForMessages} was aborted`, { cause: error });
    throw transportError(error, hostForMessages);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
    // Destroy, not close: a truncated body must not be drained, and nothing is reused across calls.
    client?.destroy().catch(() => undefined);
  }
}
