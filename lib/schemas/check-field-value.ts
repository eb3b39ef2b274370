import type { FieldDefinition, FieldOfType } from "./field-definition";
import { compilePattern } from "./pattern-safety";
import { FIELD_LIMITS } from "./field-limits";

/**
 * What a single value of a field looks like: the leaf rules shared by record validation and by
 * the check of a definition's `default`. Structure (component objects, dynamic-zone items, lists
 * of relation ids) is the record validator's business; this module sees one value.
 */

export type ValueCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** Field types whose values are checked here (everything but component and dynamic_zone). */
export type LeafFieldDefinition = Exclude<FieldDefinition, { type: "component" | "dynamic_zone" }>;

export interface CheckOptions {
  /**
   * Accept unambiguous text forms of values: "42" / "-1.5" / "1e3" for numbers, "7" for
   * integers, "true" / "false" for booleans. Record input coerces (forms, query strings,
   * templates); a definition's default does not.
   */
  coerce: boolean;
}

const STRING_LIMITS: Record<"string" | "text" | "richtext" | "email" | "url", number> = {
  string: FIELD_LIMITS.stringMaxLength,
  text: FIELD_LIMITS.textMaxLength,
  richtext: FIELD_LIMITS.textMaxLength,
  email: FIELD_LIMITS.emailMaxLength,
  url: FIELD_LIMITS.urlMaxLength,
};

const ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${FIELD_LIMITS.idLength}}$`);
const NUMERIC_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;
// HTML's "valid email address" grammar (what browsers accept), with a dot required in the domain.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

const fail = (message: string): ValueCheck => ({ ok: false, message });
const pass = (value: unknown): ValueCheck => ({ ok: true, value });

/**
 * Reads an ISO 8601 date-time with a time zone (`2025-01-31T12:00:00Z`, `...+02:00`) or a plain
 * date (midnight UTC) and answers it normalized to `toISOString()` form, or null. Times without a
 * zone are refused: the server cannot know whose local time was meant.
 */
export function normalizeDateTime(text: string): string | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone = "Z"] = match;
  const y = Number(year);
  const mo = Number(month);
  const d = Number(day);
  const h = Number(hour);
  const mi = Number(minute);
  const s = Number(second);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d > daysInMonth) return null;
  let offsetMinutes = 0;
  if (zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMins = Number(zone.slice(4, 6));
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = sign * (offsetHours * 60 + offsetMins);
  }
  const milliseconds = Number(fraction.padEnd(3, "0").slice(0, 3));
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi - offsetMinutes, s, milliseconds);
  if (Number.isNaN(utc.getTime())) return null;
  return utc.toISOString();
}

/** Reads a number from a JSON number or, when coercing, from unambiguous decimal text. */
function readNumber(value: unknown, coerce: boolean): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (coerce && typeof value === "string" && NUMERIC_TEXT.test(value)) {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

function checkLength(field: { min?: number; max?: number }, length: number, unit: string): string | null {
  if (field.min !== undefined && length < field.min) return `must be at least ${field.min} ${unit}`;
  if (field.max !== undefined && length > field.max) return `must be at most ${field.max} ${unit}`;
  return null;
}

/** Unique text-like fields hold shorter values: the index must be able to store them. */
function uniqueLimit(field: LeafFieldDefinition): number | undefined {
  return "unique" in field && field.unique ? FIELD_LIMITS.uniqueTextLength : undefined;
}

function checkText(field: FieldOfType<"string" | "text" | "richtext">, value: unknown): ValueCheck {
  if (typeof value !== "string") return fail("must be a string");
  if (value.includes("\u0000")) return fail("must not contain the NUL character");
  const hardLimit = uniqueLimit(field) ?? STRING_LIMITS[field.type];
  if (value.length > hardLimit) return fail(`must be at most ${hardLimit} characters`);
  const lengthProblem = checkLength(field, value.length, "characters");
  if (lengthProblem) return fail(lengthProblem);
  if (field.type === "string" && field.pattern !== undefined && !compilePattern(field.pattern).test(value)) {
    return fail(`must match the pattern ${field.pattern}`);
  }
  return pass(value);
}

function checkNumber(field: FieldOfType<"number" | "integer">, value: unknown, coerce: boolean): ValueCheck {
  if (field.type === "integer" && typeof value === "string" && !(coerce && INTEGER_TEXT.test(value))) {
    return fail("must be an integer");
  }
  const number = readNumber(value, coerce);
  if (number === null) return fail(field.type === "integer" ? "must be an integer" : "must be a number");
  if (field.type === "integer" && !Number.isSafeInteger(number)) return fail("must be an integer");
  if (field.min !== undefined && number < field.min) return fail(`must be at least ${field.min}`);
  if (field.max !== undefined && number > field.max) return fail(`must be at most ${field.max}`);
  // -0 is stored as 0: JSON cannot tell them apart anyway.
  return pass(number === 0 ? 0 : number);
}

function checkDateTime(field: FieldOfType<"datetime">, value: unknown): ValueCheck {
  const message = "must be an ISO 8601 date-time with a time zone, such as 2025-01-31T12:00:00Z";
  if (typeof value !== "string") return fail(message);
  const normalized = normalizeDateTime(value);
  if (normalized === null) return fail(message);
  const min = field.min === undefined ? null : normalizeDateTime(field.min);
  const max = field.max === undefined ? null : normalizeDateTime(field.max);
  if (min !== null && normalized < min) return fail(`must not be before ${min}`);
  if (max !== null && normalized > max) return fail(`must not be after ${max}`);
  return pass(normalized);
}

function checkEmail(field: FieldOfType<"email">, value: unknown): ValueCheck {
  if (typeof value !== "string") return fail("must be an email address");
  // Addresses are compared case-insensitively everywhere (unique indexes, auth logins), so they are stored lowercased.
  const email = value.trim().toLowerCase();
  if (email.length > STRING_LIMITS.email || !EMAIL.test(email)) return fail("must be an email address");
  const lengthProblem = checkLength(field, email.length, "characters");
  return lengthProblem ? fail(lengthProblem) : pass(email);
}

function checkUrl(field: FieldOfType<"url">, value: unknown): ValueCheck {
  const message = "must be an http or https URL";
  if (typeof value !== "string") return fail(message);
  const url = value.trim();
  const limit = uniqueLimit(field) ?? STRING_LIMITS.url;
  if (url.length > limit) return fail(`must be at most ${limit} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail(message);
  }
  // Only web links: javascript:, data: and the like would become script in whatever site renders them.
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.hostname) return fail(message);
  const lengthProblem = checkLength(field, url.length, "characters");
  return lengthProblem ? fail(lengthProblem) : pass(url);
}

function checkId(value: unknown, what: string): ValueCheck {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) {
    return fail(`must be ${what} (a string of letters, digits, "_" or "-", at most 128 characters)`);
  }
  return pass(value);
}

/** Rejects keys that databases or downstream code read as operators or paths, at any depth. */
export function isForbiddenKey(key: string): boolean {
  return key === "" || key.startsWith("$") || key.includes(".") || key.includes("\u0000") || key === "__proto__";
}

export const FORBIDDEN_KEY_MESSAGE = 'keys must not be empty, start with "$", contain "." or NUL, or be "__proto__"';

/** Copies a JSON value, or answers the path (relative, dot-separated) and reason it is not JSON. */
export function copyJsonValue(value: unknown, depthLimit: number): { ok: true; value: unknown } | { ok: false; path: string; message: string } {
  const walk = (current: unknown, path: string[], depth: number): unknown => {
    if (typeof current === "string" && current.includes("\u0000")) throw { path, message: "must not contain the NUL character" };
    if (current === null || typeof current === "string" || typeof current === "boolean") return current;
    if (typeof current === "number") {
      if (!Number.isFinite(current)) throw { path, message: "must be a finite number" };
      return current;
    }
    if (depth >= depthLimit) throw { path, message: `must not nest deeper than ${depthLimit} levels` };
    if (Array.isArray(current)) return current.map((item, index) => walk(item, [...path, String(index)], depth + 1));
    if (typeof current === "object") {
      const prototype = Object.getPrototypeOf(current);
      if (prototype !== Object.prototype && prototype !== null) throw { path, message: "must be JSON (plain objects, arrays, strings, numbers, booleans, null)" };
      const entries: [string, unknown][] = [];
      for (const [key, item] of Object.entries(current)) {
        if (isForbiddenKey(key)) throw { path: [...path, key], message: FORBIDDEN_KEY_MESSAGE };
        if (item === undefined) continue;
        entries.push([key, walk(item, [...path, key], depth + 1)]);
      }
      return Object.fromEntries(entries);
    }
    throw { path, message: "must be JSON (plain objects, arrays, strings, numbers, booleans, null)" };
  };
  try {
    return { ok: true, value: walk(value, [], 0) };
  } catch (problem) {
    const { path, message } = problem as { path: string[]; message: string };
    return { ok: false, path: path.join("."), message };
  }
}

/**
 * Checks one non-null value against a leaf field's type and rules and answers it normalized
 * (numbers from text, lowercased emails, ISO date-times in UTC, trimmed URLs). A relation field
 * here means one related id; lists of ids are checked item by item by the caller.
 */
export function checkFieldValue(field: LeafFieldDefinition, value: unknown, options: CheckOptions): ValueCheck {
  switch (field.type) {
    case "string":
    case "text":
    case "richtext":
      return checkText(field, value);
    case "number":
    case "integer":
      return checkNumber(field, value, options.coerce);
    case "boolean":
      if (typeof value === "boolean") return pass(value);
      if (options.coerce && (value === "true" || value === "false")) return pass(value === "true");
      return fail("must be true or false");
    case "datetime":
      return checkDateTime(field, value);
    case "email":
      return checkEmail(field, value);
    case "url":
      return checkUrl(field, value);
    case "enum":
      if (typeof value === "string" && field.values.includes(value)) return pass(value);
      return fail(`must be one of ${field.values.map((item) => JSON.stringify(item)).join(", ")}`);
    case "json": {
      const copy = copyJsonValue(value, FIELD_LIMITS.jsonDepth);
      return copy.ok ? pass(copy.value) : fail(copy.path ? `${copy.path}: ${copy.message}` : copy.message);
    }
    case "relation":
      return checkId(value, "a record id");
    case "file":
      return checkId(value, "a file id");
  }
}
