import { keyProblem, textProblem, UNPAIRED_SURROGATES } from "@/lib/records/normalize-document";
import type { ExecutionLogEntry } from "./execution-log-entry";

/**
 * A log entry carries caller input as it came (query keys and values, texts quoted in step errors),
 * but the customer database refuses some of it: PostgreSQL text and jsonb cannot hold U+0000, jsonb
 * refuses unpaired UTF-16 surrogates, and the record store refuses keys that are empty, start with
 * "$", contain "." or NUL on every backend. An entry the database refuses is a call without a log,
 * so whatever the caller sent, such characters are replaced here and the entry says so. The same
 * rules apply on every backend, so entries look alike wherever they are stored.
 */

/** U+2400 SYMBOL FOR NULL: shows where a NUL was, in text and in keys. */
export const NUL_REPLACEMENT = "\u2400";
/** U+FFFD, as TextEncoder and String.prototype.toWellFormed replace an unpaired surrogate. */
export const SURROGATE_REPLACEMENT = "\uFFFD";
export const SANITIZED_NOTE = `characters the database cannot store were replaced (NUL by ${NUL_REPLACEMENT}, unpaired surrogates by ${SURROGATE_REPLACEMENT}, "$" and "." in keys by look-alikes)`;

const NUL = /\u0000/g;
// The record store refuses deeper documents (64 levels); entries are shallow, the query is capped at 20.
const MAX_DEPTH = 40;

class Sanitizer {
  changed = false;

  text(text: string): string {
    // Nearly every text is storable as it is: two cheap checks spare it two global replaces.
    if (isStorableText(text)) return text;
    const clean = text.replace(NUL, NUL_REPLACEMENT).replace(UNPAIRED_SURROGATES, SURROGATE_REPLACEMENT);
    if (clean !== text) this.changed = true;
    return clean;
  }

  key(key: string, taken: ReadonlySet<string>): string {
    let clean = this.text(key);
    // The same look-alikes redactSecrets uses for query keys.
    if (clean.startsWith("$")) clean = `＄${clean.slice(1)}`;
    if (clean.includes(".")) clean = clean.replaceAll(".", "․");
    if (clean === "") clean = "(empty)";
    // An own "__proto__" would be read as the prototype by the store's copy and vanish.
    if (clean === "__proto__") clean = "＿＿proto＿＿";
    if (clean !== key) this.changed = true;
    let unique = clean;
    for (let suffix = 2; taken.has(unique); suffix += 1) unique = `${clean}~${suffix}`;
    return unique;
  }

  /** A plain JSON copy, as JSON.stringify would write it, with every text and key storable. */
  value(input: unknown, depth: number): unknown {
    const value = input !== null && typeof input === "object" && typeof (input as { toJSON?: unknown }).toJSON === "function" ? (input as { toJSON(): unknown }).toJSON() : input;
    if (value === null || value === undefined || typeof value === "boolean") return value ?? null;
    if (typeof value === "string") return this.text(value);
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (typeof value === "bigint") return String(value);
    if (typeof value !== "object") return null;
    if (depth >= MAX_DEPTH) {
      this.changed = true;
      return "[too deep]";
    }
    // Array.from, not map: a hole is null here, as JSON.stringify writes it, not a hole in the copy.
    if (Array.isArray(value)) return Array.from(value, (item) => this.value(item, depth + 1));
    const out: Record<string, unknown> = {};
    const taken = new Set<string>();
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      const clean = this.key(key, taken);
      taken.add(clean);
      out[clean] = this.value(member, depth + 1);
    }
    return out;
  }
}

// The record store's own rules, so that what passes here is what it accepts.
function isStorableText(text: string): boolean {
  return textProblem(text) === undefined;
}

function isStorableKey(key: string): boolean {
  return key !== "__proto__" && keyProblem(key) === undefined;
}

/**
 * True when the Sanitizer's copy would equal the value itself: plain objects and arrays of storable
 * text, finite numbers, booleans and null, nothing to drop, no toJSON to call. Allocates nothing.
 */
function isPlainStorable(value: unknown, depth: number): boolean {
  if (value === null || typeof value === "boolean") return true;
  if (typeof value === "string") return isStorableText(value);
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      if (!isPlainStorable(value[index], depth + 1)) return false;
    }
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    if (key === "toJSON" || !isStorableKey(key) || !isPlainStorable(member, depth + 1)) return false;
  }
  return true;
}

/**
 * The entry as the database can store it: a plain JSON copy in which NUL, unpaired surrogates and
 * keys the store refuses are replaced. When anything was replaced the entry has `sanitized: true`
 * and a note saying what was done. An entry that is plain and storable already, as nearly every
 * one is (buildExecutionLogEntry writes fresh objects of text), is answered as it is: it is built
 * for this one log and nothing changes it afterwards, and a copy of every entry was a twentieth of
 * what a simple endpoint call allocates.
 */
export function makeEntryStorable(entry: ExecutionLogEntry): ExecutionLogEntry {
  if (isPlainStorable(entry, 0)) return entry;
  const sanitizer = new Sanitizer();
  const clean = sanitizer.value(entry, 0) as ExecutionLogEntry;
  return sanitizer.changed ? { ...clean, sanitized: true, note: SANITIZED_NOTE } : clean;
}
