import { previewValue, PREVIEW_MAX_CHARS } from "./preview";
import { isSecretKey, mayHoldSecretKey, REDACTED, redactBearerTokens } from "./redact";

/** What the log keeps of the answer an endpoint call or a test run sent. */
export interface ExecutionResponseLog {
  status: number;
  /** Content type and the owner's headers, lower-case, secret-named ones redacted, capped. */
  headers: Record<string, string>;
  /** The body as a capped preview (JSON: secret-named fields redacted, then re-serialised compactly); null when empty. */
  body: string | null;
  /** Set when headers were left out or cut to stay within the caps. */
  headersCapped?: true;
}

/** The rendered answer before the platform's own headers (CORS, cache, rate limit, security) are added. */
export interface SentResponse {
  status: number;
  contentType: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  /**
   * The value a JSON body is the text of, when the renderer had one (a body of `{{steps.<name>}}`):
   * previewed as it is, without parsing the body back. Absent otherwise.
   */
  bodyValue?: unknown;
}

export const RESPONSE_HEADERS_MAX = 30;
export const RESPONSE_HEADER_VALUE_MAX_CHARS = 500;
export const RESPONSE_HEADERS_MAX_CHARS = 4_000;
/** JSON bodies up to this size are parsed so that secret-named fields can be hidden; larger ones are cut as text. */
const PARSED_BODY_MAX_CHARS = 64_000;

/** Headers whose value is a credential or session whatever it is called. */
const CREDENTIAL_HEADERS = new Set(["set-cookie", "cookie", "authorization", "proxy-authorization", "www-authenticate", "proxy-authenticate"]);

function headerValue(name: string, value: string): string {
  if (CREDENTIAL_HEADERS.has(name) || isSecretKey(name)) return REDACTED;
  const cut = value.length > RESPONSE_HEADER_VALUE_MAX_CHARS ? `${value.slice(0, RESPONSE_HEADER_VALUE_MAX_CHARS)}…` : value;
  return redactBearerTokens(cut);
}

function previewHeaders(response: SentResponse): { headers: Record<string, string>; capped: boolean } {
  const headers: Record<string, string> = {};
  let total = 0;
  let capped = false;
  const entries: Array<[string, string]> = [
    ["content-type", response.contentType],
    ...Object.entries(response.headers).map(([name, value]): [string, string] => [name.toLowerCase(), value]),
  ];
  for (const [name, value] of entries) {
    // The platform's content type is the one sent; an owner's header of that name never is.
    if (name in headers) continue;
    const shown = headerValue(name, value);
    if (Object.keys(headers).length >= RESPONSE_HEADERS_MAX || total + name.length + shown.length > RESPONSE_HEADERS_MAX_CHARS) {
      capped = true;
      break;
    }
    if (value.length > RESPONSE_HEADER_VALUE_MAX_CHARS) capped = true;
    headers[name] = shown;
    total += name.length + shown.length;
  }
  return { headers, capped };
}

function previewBody(response: SentResponse, preview: (value: unknown) => string | null): string | null {
  const body = response.body;
  if (body === "") return null;
  // What JSON.parse(body) would give (a value's JSON text parses back to an equal value); null keeps the text path below ("null").
  if (response.bodyValue !== undefined && response.bodyValue !== null && response.contentType.startsWith("application/json")) return preview(response.bodyValue);
  // Parsing is only needed to find secret-named fields: a body in which no such name appears at all
  // (and no \u escape could spell one) is shown as it was sent, cut, without the parse and re-serialisation.
  if (response.contentType.startsWith("application/json") && body.length <= PARSED_BODY_MAX_CHARS && (mayHoldSecretKey(body) || body.includes("\\u"))) {
    try {
      return previewValue(JSON.parse(body) as unknown);
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  const cut = body.length > PREVIEW_MAX_CHARS ? `${body.slice(0, PREVIEW_MAX_CHARS)}… (cut at ${PREVIEW_MAX_CHARS} characters)` : body;
  return redactBearerTokens(cut);
}

/**
 * The answer as the execution page shows it. Built when the log is written, on the call's path, so
 * the work is bounded by the caps rather than by the body: a large JSON body is cut as text, not parsed.
 * `preview` previews a body's value (write-execution-log.ts passes one that reuses a step output's preview).
 */
export function previewResponse(response: SentResponse, preview: (value: unknown) => string | null = previewValue): ExecutionResponseLog {
  const { headers, capped } = previewHeaders(response);
  return { status: response.status, headers, body: previewBody(response, preview), ...(capped ? { headersCapped: true as const } : {}) };
}
