/**
 * The platform's logger: one JSON line per entry, with secrets masked in every line. Connection
 * strings keep their user and host but lose the password, bearer tokens and fields named like
 * secrets become `****`. Masking happens here, once, so a careless `log.error(driverError)` cannot
 * leak a customer's database password.
 */

export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

export const MASK = "****";

const SENSITIVE_FIELD_NAME = /passw(or)?d|passphrase|^pass$|^pwd$|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|authorization|cookie|credential/i;

/** True for field names whose values are never logged (`password`, `apiKey`, `clientSecret`, ...). */
export function isSensitiveFieldName(name: string): boolean {
  return SENSITIVE_FIELD_NAME.test(name);
}

// scheme:// followed by everything up to whitespace or a quote: the URL as it sits in longer text.
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>]+/gi;

function maskUrlCredentials(url: string): string {
  const schemeEnd = url.indexOf("://") + 3;
  // Credentials end at the last "@" before any query or fragment, so a raw "@" or "/" inside the
  // password is still masked (over-masking beats leaking).
  const queryStart = url.slice(schemeEnd).search(/[?#]/);
  const authorityAndPath = queryStart === -1 ? url.slice(schemeEnd) : url.slice(schemeEnd, schemeEnd + queryStart);
  const at = authorityAndPath.lastIndexOf("@");
  let masked = url;
  if (at !== -1) {
    const userInfo = authorityAndPath.slice(0, at);
    const colon = userInfo.indexOf(":");
    if (colon !== -1) {
      masked = `${url.slice(0, schemeEnd)}${userInfo.slice(0, colon)}:${MASK}${url.slice(schemeEnd + at)}`;
    }
  }
  return masked.replace(QUERY_SECRET, (_match, prefix: string) => `${prefix}${MASK}`);
}

const SECRET_KEY_NAMES = "pass(?:word|wd|phrase)?|pwd|secret|client[_-]?secret|token|access[_-]?token|refresh[_-]?token|api[_-]?key|access[_-]?key|private[_-]?key";
const QUERY_SECRET = new RegExp(`([?&](?:${SECRET_KEY_NAMES})=)[^&#]*`, "gi");

/**
 * Masks the password of a connection string: `postgres://user:secret@host/db` →
 * `postgres://user:****@host/db`; also secrets in its query (`?password=...`). A URL without a
 * password comes back unchanged. Works for any scheme (postgres, mongodb+srv, redis, smtp, ...) and
 * for multi-host MongoDB URLs that `new URL` cannot parse.
 */
export function maskConnectionString(url: string): string {
  return url.replace(URL_IN_TEXT, maskUrlCredentials);
}

const AUTHORIZATION_HEADER = /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|token|digest)\s+)?[^\s"',;]+/gi;
const BEARER_TOKEN = /\b(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const KEY_VALUE_SECRET = new RegExp(
  // `password=x`, `DB_PASSWORD: x`, `"password":"x"`, `api_key='x'`; not `//token:pw@` (a URL's user).
  `(?<![\\w./-])(["']?[\\w.-]*?(?:${SECRET_KEY_NAMES})["']?\\s*[:=]\\s*)(?:"[^"]*"|'[^']*'|[^\\s"',;&]+)`,
  "gi",
);

/**
 * Masks secrets in free text such as a driver's error message: connection-string passwords,
 * `Authorization:` header values, `Bearer` tokens and `password=...`-style pairs.
 */
export function redactText(text: string): string {
  return text
    .replace(URL_IN_TEXT, maskUrlCredentials)
    .replace(AUTHORIZATION_HEADER, (_match, prefix: string, scheme: string | undefined) => (scheme ? `${prefix}${scheme} ${MASK}` : `${prefix}${MASK}`))
    .replace(BEARER_TOKEN, (_match, prefix: string) => `${prefix}${MASK}`)
    .replace(KEY_VALUE_SECRET, (match, prefix: string) => {
      const value = match.slice(prefix.length);
      const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : "";
      return `${prefix}${quote}${MASK}${quote}`;
    });
}

const MAX_DEPTH = 6;
const MAX_STRING = 8_192;

function capString(value: string): string {
  return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…(truncated)` : value;
}

/** Turns a field value into JSON-safe data with every secret masked. */
export function redactValue(value: unknown, seen: WeakSet<object> = new WeakSet(), depth = 0): unknown {
  if (typeof value === "string") return capString(redactText(value));
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "symbol" || typeof value === "function") return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (seen.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  seen.add(value);
  try {
    if (value instanceof Error) {
      const out: Record<string, unknown> = { name: value.name, message: redactValue(value.message, seen, depth + 1) };
      const code = (value as { code?: unknown }).code;
      if (typeof code === "string" || typeof code === "number") out.code = code;
      if (value.stack) out.stack = redactValue(value.stack, seen, depth + 1);
      if (value.cause !== undefined) out.cause = redactValue(value.cause, seen, depth + 1);
      return out;
    }
    if (Array.isArray(value)) return value.map((item) => redactValue(item, seen, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = isSensitiveFieldName(key) && item !== null && item !== undefined && item !== "" ? MASK : redactValue(item, seen, depth + 1);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

const RESERVED_KEYS = new Set(["time", "level", "msg"]);

/** The exact line written for one entry: `{"time":"...","level":"info","msg":"...",...fields}`. */
export function formatLogLine(level: LogLevel, message: string, fields: LogFields | undefined, now: Date): string {
  const entry: Record<string, unknown> = { time: now.toISOString(), level, msg: redactValue(message) };
  for (const [key, value] of Object.entries(fields ?? {})) {
    const name = RESERVED_KEYS.has(key) ? `field.${key}` : key;
    entry[name] = isSensitiveFieldName(key) && value !== null && value !== undefined && value !== "" ? MASK : redactValue(value);
  }
  return JSON.stringify(entry);
}

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  /** Receives each finished line (no trailing newline). Default: stdout for info, stderr otherwise. */
  write?: (line: string, level: LogLevel) => void;
  now?: () => Date;
}

function writeToProcess(line: string, level: LogLevel): void {
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? writeToProcess;
  const now = options.now ?? (() => new Date());
  const emit = (level: LogLevel) => (message: string, fields?: LogFields) => {
    let line: string;
    try {
      line = formatLogLine(level, message, fields, now());
    } catch {
      // A field whose getter throws must not take the caller down with it.
      line = JSON.stringify({ time: now().toISOString(), level, msg: redactText(String(message)), logError: "fields could not be serialised" });
    }
    write(line, level);
  };
  return { info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** The process-wide logger. */
export const log: Logger = createLogger();
