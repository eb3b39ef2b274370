import { AppError, type ErrorIssue } from "@/lib/errors";

/** MongoDB refuses deeper documents (100); we stay well below it on every backend. */
export const MAX_DEPTH = 64;
const MAX_ISSUES = 20;

/** A UTF-16 surrogate without its partner: JSON text escapes it as \udXXX and jsonb refuses that. */
export const UNPAIRED_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Whether a text has no unpaired surrogate: ES2024's String.prototype.isWellFormed (in Node 20; not
 * in this project's ES2023 type library), several times cheaper than searching with
 * UNPAIRED_SURROGATES on the texts every stored document and every execution log is made of.
 */
export function isWellFormedText(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Why text cannot be stored (PostgreSQL text and jsonb hold neither NUL nor unpaired surrogates). */
export function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "the NUL character";
  if (!isWellFormedText(text)) return "unpaired UTF-16 surrogates";
  return undefined;
}

/** Why a key cannot be stored, at any depth and on every backend. */
export function keyProblem(key: string): string | undefined {
  if (key === "") return "field names cannot be empty";
  if (key.startsWith("$")) return 'field names cannot start with "$"';
  if (key.includes(".")) return 'field names cannot contain "."';
  const text = textProblem(key);
  if (text) return `field names cannot contain ${text}`;
  return undefined;
}

function join(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Checks a value for storage and returns its plain JSON copy. The rules are the same on every
 * backend, so a document that one accepts the others accept too: keys never start with `$`, never
 * contain `.` and are never empty (at any depth); neither keys nor strings contain NUL or an
 * unpaired UTF-16 surrogate (PostgreSQL jsonb cannot hold them); numbers are finite; Dates become
 * ISO 8601 strings; `undefined` members are dropped (and become null inside arrays), as
 * JSON.stringify does. Anything else is refused.
 */
export function normalizeValue(value: unknown, path: string, issues: ErrorIssue[], depth = 0, checkKeys = true): unknown {
  if (issues.length >= MAX_ISSUES) return null;
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") {
    const problem = textProblem(value);
    if (problem) issues.push({ path, message: `text cannot contain ${problem}` });
    return value;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) issues.push({ path, message: "numbers must be finite" });
    return value;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) issues.push({ path, message: "invalid date" });
    else return value.toISOString();
    return null;
  }
  if (typeof value === "object") {
    if (depth >= MAX_DEPTH) {
      issues.push({ path, message: `values cannot be nested more than ${MAX_DEPTH} levels deep` });
      return null;
    }
    if (Array.isArray(value)) {
      return value.map((item, index) => (item === undefined ? null : normalizeValue(item, join(path, index), issues, depth + 1, checkKeys)));
    }
    if (!isPlainObject(value)) {
      issues.push({ path, message: "only JSON values can be stored" });
      return null;
    }
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (issues.length >= MAX_ISSUES) break;
      const problem = checkKeys ? keyProblem(key) : undefined;
      if (problem) {
        issues.push({ path: join(path, key), message: problem });
        continue;
      }
      if (member === undefined) continue;
      out[key] = normalizeValue(member, join(path, key), issues, depth + 1, checkKeys);
    }
    return out;
  }
  if (value === undefined) return null;
  issues.push({ path, message: "only JSON values can be stored" });
  return null;
}

/**
 * True when a (normalized) value could be stored: no key or text anywhere breaks the write rules.
 * A filter literal that could not be stored can never equal a stored value, so the filter builders
 * answer "no match" for it without asking the database.
 */
export function isStorableValue(value: unknown): boolean {
  if (value === null || typeof value !== "object") return typeof value !== "string" || textProblem(value) === undefined;
  if (Array.isArray(value)) return value.every(isStorableValue);
  return Object.entries(value).every(([key, member]) => keyProblem(key) === undefined && isStorableValue(member));
}

/** A top-level document (a plain object), checked and copied; throws validation_failed with every issue. */
export function normalizeDocument(document: unknown, what = "document"): Record<string, unknown> {
  if (document === null || typeof document !== "object" || Array.isArray(document) || !isPlainObject(document)) {
    throw new AppError("validation_failed", `the ${what} must be a JSON object`, { issues: [{ path: "", message: "must be a JSON object" }] });
  }
  const issues: ErrorIssue[] = [];
  const out = normalizeValue(document, "", issues) as Record<string, unknown>;
  if (issues.length) throw new AppError("validation_failed", `the ${what} cannot be stored`, { issues });
  return out;
}
