import type { ErrorIssue } from "@/lib/errors";
import { INPUT_LIMITS, type EndpointInputSpec, type InputField, type InputLocation } from "../endpoint-input";

/** The query as read from the URL: a repeated parameter is a list (read-invocation-body.ts). */
export type RawQuery = Readonly<Record<string, string | string[]>>;

export type InputVerdict = { ok: true; query: Record<string, unknown> } | { ok: false; issues: ErrorIssue[] };

/**
 * An endpoint's input checks, compiled once per endpoint version (project-runtime.ts): checks the
 * declared fields of a call's query and body and answers the query as templates see it, with
 * numbers, integers and booleans converted. `body` is undefined when the method has no body
 * (GET, DELETE): it is not checked then.
 */
export interface InputCheck {
  readonly checksBody: boolean;
  check(query: RawQuery, body: unknown): InputVerdict;
}

/** Adds an issue unless the cap (INPUT_LIMITS.maxIssues) is reached. */
type IssueSink = (path: string, message: string) => void;

type FieldCheck = (value: unknown, path: string, report: IssueSink) => unknown;

const INTEGER_TEXT = /^[+-]?\d{1,16}$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const ENUM_SHOWN = 10;

function describeEnum(values: readonly (string | number)[]): string {
  const shown = values.slice(0, ENUM_SHOWN).map((value) => (typeof value === "string" ? JSON.stringify(value) : String(value)));
  return values.length > ENUM_SHOWN ? `${shown.join(", ")}, …` : shown.join(", ");
}

/** String length in characters (code points), as JSON Schema's minLength and maxLength count. */
function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The checks that follow the type: enum, bounds, pattern. Messages name the rule, never the caller's value. */
function ruleChecks(field: InputField): (value: unknown, path: string, report: IssueSink) => void {
  const allowed = field.enum ? new Set<unknown>(field.enum) : null;
  const enumMessage = field.enum ? `must be one of ${describeEnum(field.enum)}` : "";
  const pattern = field.pattern !== undefined && field.type === "string" ? new RegExp(field.pattern, "u") : null;
  const { min, max } = field;
  const measure: ((value: unknown) => number) | null =
    field.type === "string" ? (value) => characterCount(value as string) : field.type === "array" ? (value) => (value as unknown[]).length : null;
  const unit = field.type === "string" ? " characters long" : field.type === "array" ? " items" : "";
  const verb = field.type === "array" ? "must have" : "must be";
  return (value, path, report) => {
    if (allowed && !allowed.has(value)) report(path, enumMessage);
    if (min !== undefined || max !== undefined) {
      const size = measure ? measure(value) : (value as number);
      if (min !== undefined && size < min) report(path, `${verb} at least ${min}${unit}`);
      else if (max !== undefined && size > max) report(path, `${verb} at most ${max}${unit}`);
    }
    if (pattern && !pattern.test(value as string)) report(path, `must match the pattern ${field.pattern}`);
  };
}

const BODY_TYPE_CHECKS: Record<InputField["type"], { test: (value: unknown) => boolean; message: string }> = {
  string: { test: (value) => typeof value === "string", message: "must be text" },
  number: { test: (value) => typeof value === "number", message: "must be a number" },
  integer: { test: (value) => typeof value === "number" && Number.isInteger(value), message: "must be a whole number" },
  boolean: { test: (value) => typeof value === "boolean", message: "must be true or false" },
  array: { test: Array.isArray, message: "must be a list" },
  object: { test: isPlainObject, message: "must be an object" },
};

function compileBodyField(field: InputField): FieldCheck {
  const type = BODY_TYPE_CHECKS[field.type];
  const rules = ruleChecks(field);
  return (value, path, report) => {
    if (value === undefined || value === null) {
      if (field.required) report(path, "is required");
      return value;
    }
    if (!type.test(value)) report(path, type.message);
    else rules(value, path, report);
    return value;
  };
}

/** Converts one query value to the field's type; undefined (with an issue reported) when it cannot. */
function coerceQueryText(field: InputField, text: string, path: string, report: IssueSink): unknown {
  switch (field.type) {
    case "integer": {
      const value = INTEGER_TEXT.test(text) ? Number(text) : Number.NaN;
      if (Number.isSafeInteger(value)) return value;
      report(path, "must be a whole number");
      return undefined;
    }
    case "number": {
      const value = NUMBER_TEXT.test(text) ? Number(text) : Number.NaN;
      if (Number.isFinite(value)) return value;
      report(path, "must be a number");
      return undefined;
    }
    case "boolean":
      if (text === "true") return true;
      if (text === "false") return false;
      report(path, "must be true or false");
      return undefined;
    default:
      return text;
  }
}

function compileQueryField(field: InputField): FieldCheck {
  const rules = ruleChecks(field);
  return (raw, path, report) => {
    // An empty value (`?page=`) is what a blank form field sends: absent, except for text and lists.
    const absent = raw === undefined || (raw === "" && field.type !== "string" && field.type !== "array");
    if (absent) {
      if (field.required) report(path, "is required");
      return undefined;
    }
    if (field.type === "array") {
      const items = Array.isArray(raw) ? raw : [raw];
      rules(items, path, report);
      return items;
    }
    if (Array.isArray(raw)) {
      report(path, "must be given once");
      return undefined;
    }
    const value = coerceQueryText(field, raw as string, path, report);
    if (value !== undefined) rules(value, path, report);
    return value;
  };
}

type CompiledFields = ReadonlyArray<readonly [name: string, path: string, check: FieldCheck]>;

function compileFields(location: InputLocation, fields: Readonly<Record<string, InputField>> | undefined): CompiledFields {
  return Object.entries(fields ?? {}).map(([name, field]) => [name, `${location}.${name}`, location === "query" ? compileQueryField(field) : compileBodyField(field)] as const);
}

/** Compiles a definition's `input` (already validated); null when it declares nothing, so such endpoints pay nothing per call. */
export function compileInputCheck(spec: EndpointInputSpec | null | undefined): InputCheck | null {
  if (!spec) return null;
  const queryFields = compileFields("query", spec.query);
  const bodyFields = compileFields("body", spec.body);
  if (queryFields.length === 0 && bodyFields.length === 0) return null;
  return {
    checksBody: bodyFields.length > 0,
    check(query, body) {
      const issues: ErrorIssue[] = [];
      const report: IssueSink = (path, message) => {
        if (issues.length < INPUT_LIMITS.maxIssues) issues.push({ path, message });
      };
      const coerced: Record<string, unknown> = { ...query };
      for (const [name, path, check] of queryFields) {
        if (issues.length >= INPUT_LIMITS.maxIssues) break;
        const value = check(Object.hasOwn(query, name) ? query[name] : undefined, path, report);
        if (value === undefined) delete coerced[name];
        else coerced[name] = value;
      }
      if (body !== undefined && bodyFields.length > 0) {
        if (!isPlainObject(body)) report("body", "must be a JSON object");
        else {
          for (const [name, path, check] of bodyFields) {
            if (issues.length >= INPUT_LIMITS.maxIssues) break;
            check(Object.hasOwn(body, name) ? body[name] : undefined, path, report);
          }
        }
      }
      return issues.length > 0 ? { ok: false, issues } : { ok: true, query: coerced };
    },
  };
}
