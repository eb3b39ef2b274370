import { AppError } from "@/lib/errors";

/**
 * Templates: `{{path}}` placeholders over the run context. No logic, one pass, own properties only.
 *
 * - A path is dotted segments under one of the roots body, query, user, steps, trigger; a number
 *   indexes an array; `length` counts an array or a string. Whitespace inside the braces is allowed.
 * - A placeholder that does not resolve (unknown root or field, inherited property such as
 *   `constructor` or `__proto__`, index out of range, malformed path) stays in the output literally.
 * - In text, strings are inserted as they are and everything else as JSON (arrays, objects, numbers,
 *   booleans, null). Where a template fills a value and is exactly one placeholder, the value keeps
 *   its own type (see renderValue).
 * - The result is never rendered again: a value that itself contains `{{...}}` stays text.
 *
 * Parsed templates are cached by their text, so the hot path only walks paths and joins strings.
 */

/**
 * `secrets` is parsed like the others but resolves only in a scope that carries the run's decrypted
 * values, which only the outbound step runners build (lib/flow/steps/shared/with-step-secrets.ts);
 * the run context never has it, so anywhere else `{{secrets.NAME}}` stays literal text.
 */
export const TEMPLATE_ROOTS = ["body", "query", "user", "steps", "trigger", "secrets"] as const;
export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

/** What templates read. The run context satisfies it. */
export type TemplateScope = { readonly [K in TemplateRoot]?: unknown };

export interface Placeholder {
  /** The placeholder exactly as written, braces and whitespace included (used when it does not resolve). */
  readonly raw: string;
  readonly root: TemplateRoot;
  /** The segments after the root. */
  readonly path: readonly string[];
}

export interface ParsedTemplate {
  /** Literal text and placeholders in order; a malformed placeholder is literal text. */
  readonly parts: readonly (string | Placeholder)[];
  /** Set when the template is one placeholder, optionally surrounded by whitespace. */
  readonly single: Placeholder | null;
}

/** The result of a lookup that found nothing. */
export const MISSING: unique symbol = Symbol("missing");
export type Missing = typeof MISSING;

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const SEGMENT = /^[^\s{}]+$/;
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;
const ROOTS: ReadonlySet<string> = new Set(TEMPLATE_ROOTS);

const CACHE_MAX_ENTRIES = 5_000;
const CACHE_MAX_TEMPLATE_LENGTH = 16_384;
const parsedCache = new Map<string, ParsedTemplate>();

function parsePlaceholder(raw: string, inner: string): Placeholder | null {
  const segments = inner.trim().split(".");
  const root = segments[0];
  if (root === undefined || !ROOTS.has(root)) return null;
  for (const segment of segments) if (!SEGMENT.test(segment)) return null;
  return { raw, root: root as TemplateRoot, path: segments.slice(1) };
}

function parseUncached(template: string): ParsedTemplate {
  const parts: (string | Placeholder)[] = [];
  let text = "";
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const placeholder = parsePlaceholder(match[0], match[1] ?? "");
    text += template.slice(last, match.index);
    last = match.index + match[0].length;
    if (placeholder === null) {
      text += match[0];
      continue;
    }
    if (text !== "") parts.push(text);
    text = "";
    parts.push(placeholder);
  }
  text += template.slice(last);
  if (text !== "") parts.push(text);

  const placeholders = parts.filter((part): part is Placeholder => typeof part !== "string");
  const onlyWhitespaceAround = parts.every((part) => typeof part !== "string" || part.trim() === "");
  const single = placeholders.length === 1 && onlyWhitespaceAround ? (placeholders[0] ?? null) : null;
  return { parts, single };
}

/** Parses a template once; later calls with the same text are answered from a cache. */
export function parseTemplate(template: string): ParsedTemplate {
  const cached = parsedCache.get(template);
  if (cached !== undefined) return cached;
  const parsed = parseUncached(template);
  if (template.length <= CACHE_MAX_TEMPLATE_LENGTH) {
    if (parsedCache.size >= CACHE_MAX_ENTRIES) {
      const oldest = parsedCache.keys().next().value;
      if (oldest !== undefined) parsedCache.delete(oldest);
    }
    parsedCache.set(template, parsed);
  }
  return parsed;
}

/** One `{{…}}` of a template text, where it stands, and what it reads (null when it is literal text). */
export interface PlaceholderMatch {
  readonly raw: string;
  /** Offsets of the opening `{{` and just after the closing `}}`. */
  readonly start: number;
  readonly end: number;
  /** The text between the braces, as written. */
  readonly inner: string;
  /** The parsed placeholder, or null when the braces hold something the renderer leaves literal (unknown root, malformed path). */
  readonly placeholder: Placeholder | null;
}

/**
 * Every `{{…}}` of a template, parsed by the same rules as rendering (the editor's autocomplete and
 * the save-time placeholder lint read templates through this, so they speak the renderer's dialect).
 */
export function scanPlaceholders(template: string): PlaceholderMatch[] {
  if (!template.includes("{{")) return [];
  return [...template.matchAll(PLACEHOLDER)].map((match) => {
    const inner = match[1] ?? "";
    return { raw: match[0], start: match.index, end: match.index + match[0].length, inner, placeholder: parsePlaceholder(match[0], inner) };
  });
}

/** True for a path segment that indexes an array (`0`, `12`; no sign, no leading zero). */
export function isArrayIndexSegment(segment: string): boolean {
  return ARRAY_INDEX.test(segment);
}

/** True when the text contains at least one well-formed placeholder. */
export function hasPlaceholders(template: string): boolean {
  return template.includes("{{") && parseTemplate(template).parts.some((part) => typeof part !== "string");
}

/** Walks a placeholder's path through own properties only; MISSING when any step does not exist. */
export function resolvePlaceholder(scope: TemplateScope, placeholder: Placeholder): unknown {
  let current: unknown = Object.hasOwn(scope, placeholder.root) ? scope[placeholder.root] : MISSING;
  for (const segment of placeholder.path) {
    if (current === MISSING) return MISSING;
    if (Array.isArray(current)) {
      if (segment === "length") current = current.length;
      else if (ARRAY_INDEX.test(segment) && Number(segment) < current.length) current = current[Number(segment)];
      else return MISSING;
    } else if (typeof current === "string") {
      if (segment !== "length") return MISSING;
      current = current.length;
    } else if (current !== null && typeof current === "object") {
      if (!Object.hasOwn(current, segment)) return MISSING;
      current = (current as Record<string, unknown>)[segment];
    } else {
      return MISSING;
    }
  }
  // Outputs are JSON; a hole or an own property holding undefined reads as null.
  return current === undefined ? null : current;
}

/**
 * JSON text of a value. A request body of a few kilobytes can nest thousands of levels deep, and
 * JSON.stringify then overflows the stack: that is the caller's data, so it fails as an AppError
 * (a step or response failure with a reason) rather than a RangeError (an internal error).
 */
export function jsonTextOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    if (error instanceof RangeError) throw new AppError("validation_failed", "a value is nested too deeply or too large to write as text");
    throw error;
  }
}

/** How a value is written into text: strings as they are, everything else as JSON. */
export function stringifyTemplateValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return jsonTextOf(value);
}

export interface RenderTemplateOptions {
  /**
   * Applied to every inserted value (never to the template's own text), e.g. HTML escaping for
   * an email body or URI encoding for a URL. It gets the value's text and the value itself, so an
   * escaper can tell a number from text that merely looks like one.
   */
  escape?: (text: string, value: unknown) => string;
}

/** Renders a template to text. */
export function renderTemplate(template: string, scope: TemplateScope, options: RenderTemplateOptions = {}): string {
  if (!template.includes("{{")) return template;
  const { parts } = parseTemplate(template);
  const escape = options.escape;
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const value = resolvePlaceholder(scope, part);
    if (value === MISSING) out += part.raw;
    else out += escape ? escape(stringifyTemplateValue(value), value) : stringifyTemplateValue(value);
  }
  return out;
}

export interface ResolvedValue {
  /** True when the template is one placeholder that does not resolve. */
  missing: boolean;
  /** The value; for a missing placeholder, the template text itself. */
  value: unknown;
}

/**
 * Renders a template that fills a value. One placeholder (whitespace around it allowed) answers
 * the value with its own type; anything else answers text. `missing` tells a condition's `exists`
 * apart from a value that happens to look like a placeholder.
 */
export function resolveValue(template: string, scope: TemplateScope): ResolvedValue {
  if (!template.includes("{{")) return { missing: false, value: template };
  const { single } = parseTemplate(template);
  if (single === null) return { missing: false, value: renderTemplate(template, scope) };
  const value = resolvePlaceholder(scope, single);
  return value === MISSING ? { missing: true, value: template } : { missing: false, value };
}

/**
 * Renders a value setting: strings as templates (type kept for a single placeholder, an unknown
 * placeholder stays as its text), arrays and plain objects element by element, other JSON as is.
 */
export function renderValue(template: unknown, scope: TemplateScope): unknown {
  if (typeof template === "string") return resolveValue(template, scope).value;
  if (Array.isArray(template)) return template.map((item) => renderValue(item, scope));
  if (template !== null && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(template)) {
      const value = renderValue((template as Record<string, unknown>)[key], scope);
      // A plain assignment to "__proto__" would set the prototype instead of a field.
      if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  }
  return template;
}
