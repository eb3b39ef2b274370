import { AppError, type ErrorIssue } from "@/lib/errors";
import { isValidFieldName } from "./record-names";
import { normalizeValue, textProblem } from "./normalize-document";
import type { FieldCondition, FilterOp, FindQuery, MatchQuery, SortSpec } from "./record-store";

const FILTER_OPS: readonly FilterOp[] = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "contains"];
const MAX_CONDITIONS = 50;
const MAX_IN_VALUES = 1000;
const MAX_TEXT = 1000;
const MAX_SEARCH_FIELDS = 20;
const MAX_SORT = 10;

export type Scalar = string | number | boolean | null;

/** A condition whose field, operator and value were checked; the builders rely on these shapes. */
export type CheckedCondition =
  | { field: string; op: "eq" | "ne"; value: unknown }
  | { field: string; op: "gt" | "gte" | "lt" | "lte"; value: string | number }
  | { field: string; op: "in"; value: Scalar[] }
  | { field: string; op: "contains"; value: string };

export interface CheckedSearch {
  text: string;
  fields: string[];
}

export interface CheckedMatch {
  where: CheckedCondition[];
  search?: CheckedSearch;
}

export interface CheckedFind extends CheckedMatch {
  sort: SortSpec[];
  skip: number;
  limit?: number;
}

function fail(issues: ErrorIssue[]): never {
  throw new AppError("validation_failed", "invalid query", { issues });
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

function checkText(value: unknown, path: string, issues: ErrorIssue[]): value is string {
  if (typeof value !== "string") issues.push({ path, message: "must be text" });
  else if (value.length > MAX_TEXT) issues.push({ path, message: `must be at most ${MAX_TEXT} characters` });
  else {
    const problem = textProblem(value);
    if (problem === undefined) return true;
    issues.push({ path, message: `text cannot contain ${problem}` });
  }
  return false;
}

function checkCondition(condition: unknown, path: string, issues: ErrorIssue[]): CheckedCondition | undefined {
  if (condition === null || typeof condition !== "object") {
    issues.push({ path, message: "must be a condition {field, op, value}" });
    return undefined;
  }
  const { field, op, value } = condition as Partial<FieldCondition>;
  if (!isValidFieldName(field)) issues.push({ path: `${path}.field`, message: "must be a field name (letters, digits, underscores; not _id)" });
  if (!FILTER_OPS.includes(op as FilterOp)) {
    issues.push({ path: `${path}.op`, message: `must be one of ${FILTER_OPS.join(", ")}` });
    return undefined;
  }
  const valuePath = `${path}.value`;
  const before = issues.length;
  switch (op) {
    case "eq":
    case "ne": {
      // Keys are not checked: {"$ne": null} is a literal here, never an operator.
      const literal = normalizeValue(value === undefined ? null : value, valuePath, issues, 0, false);
      return issues.length === before ? { field: field as string, op, value: literal } : undefined;
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      if (typeof value === "number" && Number.isFinite(value)) return issues.length === before ? { field: field as string, op, value } : undefined;
      if (typeof value === "string") return checkText(value, valuePath, issues) && issues.length === before ? { field: field as string, op, value } : undefined;
      issues.push({ path: valuePath, message: "must be a number or text" });
      return undefined;
    case "in": {
      if (!Array.isArray(value)) {
        issues.push({ path: valuePath, message: "must be an array" });
        return undefined;
      }
      if (value.length > MAX_IN_VALUES) issues.push({ path: valuePath, message: `must hold at most ${MAX_IN_VALUES} values` });
      value.forEach((item, index) => {
        if (!isScalar(item)) issues.push({ path: `${valuePath}.${index}`, message: "must be text, a number, true, false or null" });
        else if (typeof item === "string") checkText(item, `${valuePath}.${index}`, issues);
      });
      return issues.length === before ? { field: field as string, op, value: value as Scalar[] } : undefined;
    }
    case "contains":
      return checkText(value, valuePath, issues) && issues.length === before ? { field: field as string, op, value } : undefined;
  }
  return undefined;
}

function collectConditions(where: unknown, issues: ErrorIssue[]): CheckedCondition[] {
  if (where === undefined) return [];
  if (!Array.isArray(where)) {
    issues.push({ path: "where", message: "must be a list of conditions" });
    return [];
  }
  if (where.length > MAX_CONDITIONS) issues.push({ path: "where", message: `must hold at most ${MAX_CONDITIONS} conditions` });
  return where.flatMap((condition, index) => checkCondition(condition, `where.${index}`, issues) ?? []);
}

function collectSearch(search: unknown, issues: ErrorIssue[]): CheckedSearch | undefined {
  if (search === undefined) return undefined;
  if (search === null || typeof search !== "object") {
    issues.push({ path: "search", message: "must be {text, fields}" });
    return undefined;
  }
  const { text, fields } = search as Partial<CheckedSearch>;
  checkText(text, "search.text", issues);
  if (!Array.isArray(fields) || fields.length === 0 || fields.length > MAX_SEARCH_FIELDS) {
    issues.push({ path: "search.fields", message: `must list 1-${MAX_SEARCH_FIELDS} field names` });
    return undefined;
  }
  fields.forEach((name, index) => {
    if (!isValidFieldName(name)) issues.push({ path: `search.fields.${index}`, message: "must be a field name" });
  });
  // An empty text matches everything: no search at all.
  return typeof text === "string" && text !== "" ? { text, fields: [...new Set(fields)] } : undefined;
}

/**
 * The field list of a search index (RecordStore.ensureSearchIndex): at most 20 field names, each
 * once, in the order a search lists them (an empty list: no search index).
 */
export function checkSearchFields(fields: unknown): string[] {
  const issues: ErrorIssue[] = [];
  if (!Array.isArray(fields) || fields.length > MAX_SEARCH_FIELDS) {
    issues.push({ path: "fields", message: `must list at most ${MAX_SEARCH_FIELDS} field names` });
  } else {
    fields.forEach((name, index) => {
      if (!isValidFieldName(name)) issues.push({ path: `fields.${index}`, message: "must be a field name" });
    });
  }
  if (issues.length) throw new AppError("validation_failed", "invalid search fields", { issues });
  return [...new Set(fields as string[])];
}

function collectSort(sort: unknown, issues: ErrorIssue[]): SortSpec[] {
  if (sort === undefined) return [];
  if (!Array.isArray(sort) || sort.length > MAX_SORT) {
    issues.push({ path: "sort", message: `must be a list of at most ${MAX_SORT} {field, direction}` });
    return [];
  }
  return sort.flatMap((spec: Partial<SortSpec> | null, index) => {
    const field = spec?.field;
    const direction = spec?.direction;
    if (!isValidFieldName(field)) issues.push({ path: `sort.${index}.field`, message: "must be a field name" });
    if (direction !== "asc" && direction !== "desc") issues.push({ path: `sort.${index}.direction`, message: "must be asc or desc" });
    return isValidFieldName(field) && (direction === "asc" || direction === "desc") ? [{ field, direction }] : [];
  });
}

function checkCount(value: unknown, path: string, issues: ErrorIssue[]): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    issues.push({ path, message: "must be a whole number, 0 or more" });
    return undefined;
  }
  return value;
}

/** Checks conditions for updateFirst / deleteMany. */
export function checkConditions(where: unknown): CheckedCondition[] {
  const issues: ErrorIssue[] = [];
  const checked = collectConditions(where, issues);
  if (issues.length) fail(issues);
  return checked;
}

export function checkMatchQuery(query: MatchQuery | undefined): CheckedMatch {
  const issues: ErrorIssue[] = [];
  const where = collectConditions(query?.where, issues);
  const search = collectSearch(query?.search, issues);
  if (issues.length) fail(issues);
  return { where, search };
}

export function checkFindQuery(query: FindQuery | undefined): CheckedFind {
  const issues: ErrorIssue[] = [];
  const where = collectConditions(query?.where, issues);
  const search = collectSearch(query?.search, issues);
  const sort = collectSort(query?.sort, issues);
  const skip = checkCount(query?.skip, "skip", issues) ?? 0;
  const limit = checkCount(query?.limit, "limit", issues);
  if (issues.length) fail(issues);
  return { where, search, sort, skip, limit };
}

/** The `limit` of a count: undefined (count every match) or a whole number, 0 or more. */
export function checkCountLimit(limit: unknown): number | undefined {
  const issues: ErrorIssue[] = [];
  const checked = checkCount(limit, "limit", issues);
  if (issues.length) fail(issues);
  return checked;
}

/** Ids for findByIds: strings only; duplicates removed (order kept). */
export function checkIds(ids: unknown): string[] {
  if (!Array.isArray(ids)) fail([{ path: "ids", message: "must be a list of ids" }]);
  const issues: ErrorIssue[] = [];
  ids.forEach((id, index) => {
    if (typeof id !== "string") issues.push({ path: `ids.${index}`, message: "must be text" });
  });
  if (issues.length) fail(issues);
  return [...new Set(ids as string[])];
}

/**
 * The order every query ends with so that results are deterministic: the caller's sort, then
 * createdAt and id ascending (unless the caller already sorted by them).
 */
export function completeSort(sort: SortSpec[]): SortSpec[] {
  const named = new Set(sort.map((spec) => spec.field));
  const tail: SortSpec[] = [];
  if (!named.has("id")) {
    if (!named.has("createdAt")) tail.push({ field: "createdAt", direction: "asc" });
    tail.push({ field: "id", direction: "asc" });
  }
  return [...sort, ...tail];
}
