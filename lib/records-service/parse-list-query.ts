import { AppError, type ErrorIssue } from "@/lib/errors";
import type { FieldCondition, FilterOp, FindQuery, SortSpec } from "@/lib/records/record-store";
import { checkFieldValue, normalizeDateTime } from "@/lib/schemas/check-field-value";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";

/** A parsed, validated `GET /records/:schema` query. */
export interface ListQuery {
  where: FieldCondition[];
  /** Case-insensitive substring search over the schema's text fields; null when not asked. */
  search: { text: string; fields: string[] } | null;
  sort: SortSpec[];
  page: number;
  perPage: number;
  /** Relation fields whose related records are answered under `expand.<field>`. */
  expand: string[];
  /** False when the caller passed total=false: no count query, `meta.total` is null. */
  withTotal: boolean;
}

export const LIST_QUERY_LIMITS = {
  defaultPerPage: 20,
  maxPerPage: 100,
  maxConditions: 50,
  maxInValues: 100,
  maxSortFields: 5,
  maxSearchLength: 200,
  maxFilterValueLength: 1_000,
  /** The record store searches at most this many fields at once. */
  maxSearchFields: 20,
  /**
   * Pages start at most this many records in (page × perPage): a deeper offset costs a walk over
   * every record before it. Past it, callers page by the id: sort=id&filter[id][gt]=<last id seen>.
   */
  maxOffset: 10_000,
  /**
   * `meta.total` counts at most this many matches; past it, total is this number and
   * `meta.totalCapped` is true. Counting reads every match it counts (the field indexes cannot
   * answer a count on their own), so the cap bounds what a total adds to a list: about 1 ms.
   */
  maxTotal: 1_000,
} as const;

/** Newest first, with the id as a tie-breaker so that pages never overlap or skip. */
export const DEFAULT_SORT: readonly SortSpec[] = [
  { field: "createdAt", direction: "desc" },
  { field: "id", direction: "desc" },
];

const ALL_OPS: readonly FilterOp[] = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "contains"];
const ORDERED_OPS: readonly FilterOp[] = ["eq", "ne", "gt", "gte", "lt", "lte", "in"];
const IDENTITY_OPS: readonly FilterOp[] = ["eq", "ne", "in"];

/** What a filterable or sortable top-level field is, including the system fields. */
type QueryField = { kind: "system"; name: "id" } | { kind: "system"; name: "createdAt" | "updatedAt" } | { kind: "field"; name: string; definition: FieldDefinition };

function filterOps(field: QueryField): readonly FilterOp[] {
  if (field.kind === "system") return field.name === "id" ? IDENTITY_OPS : ORDERED_OPS;
  const { definition } = field;
  switch (definition.type) {
    case "string":
    case "text":
    case "email":
    case "url":
      return ALL_OPS;
    case "richtext":
      return ["eq", "ne", "contains"];
    case "number":
    case "integer":
    case "datetime":
      return ORDERED_OPS;
    case "boolean":
      return ["eq", "ne"];
    case "enum":
    case "file":
      return IDENTITY_OPS;
    case "relation":
      return definition.many ? [] : IDENTITY_OPS;
    default:
      return [];
  }
}

const SORTABLE_TYPES = new Set(["string", "text", "number", "integer", "boolean", "datetime", "email", "url", "enum"]);

/** The filter operators a field of the schema accepts ([] when it cannot be filtered); for the OpenAPI document. */
export function fieldFilterOps(definition: FieldDefinition): readonly FilterOp[] {
  return filterOps({ kind: "field", name: definition.name, definition });
}

/** The filter operators of the system fields `id`, `createdAt` and `updatedAt`. */
export function systemFieldFilterOps(name: "id" | "createdAt" | "updatedAt"): readonly FilterOp[] {
  return filterOps(name === "id" ? { kind: "system", name: "id" } : { kind: "system", name });
}

export function isSortableField(definition: FieldDefinition): boolean {
  return SORTABLE_TYPES.has(definition.type);
}
const SEARCHABLE_TYPES = new Set(["string", "text", "richtext", "email", "url"]);

/** The schema's text fields searched by `search=`: the first 20 in declared order. */
export function searchableFields(schema: SchemaDefinition): string[] {
  return effectiveFields(schema)
    .filter((field) => SEARCHABLE_TYPES.has(field.type))
    .map((field) => field.name)
    .slice(0, LIST_QUERY_LIMITS.maxSearchFields);
}

function lookupField(schema: SchemaDefinition, name: string): QueryField | null {
  if (name === "id") return { kind: "system", name };
  if (name === "createdAt" || name === "updatedAt") return { kind: "system", name };
  const definition = effectiveFields(schema).find((field) => field.name === name);
  return definition ? { kind: "field", name, definition } : null;
}

/** Reads one filter value as the field's type, or answers why it cannot be. */
function coerceFilterValue(field: QueryField, op: FilterOp, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.length > LIST_QUERY_LIMITS.maxFilterValueLength) return { ok: false, message: `must be at most ${LIST_QUERY_LIMITS.maxFilterValueLength} characters` };
  if (text.includes("\u0000")) return { ok: false, message: "must not contain the NUL character" };
  if (field.kind === "system") {
    if (field.name === "id") return { ok: true, value: text };
    const normalized = normalizeDateTime(text);
    return normalized === null ? { ok: false, message: "must be an ISO 8601 date-time with a time zone" } : { ok: true, value: normalized };
  }
  const { definition } = field;
  if (op === "contains") return { ok: true, value: text };
  switch (definition.type) {
    case "string":
    case "text":
    case "richtext":
    case "url":
    case "relation":
    case "file":
      return { ok: true, value: text };
    case "email":
      return { ok: true, value: text.trim().toLowerCase() };
    case "number":
    case "integer": {
      // Comparisons accept any number, also on integer fields (qty > 1.5).
      const result = checkFieldValue({ name: definition.name, type: "number" }, text, { coerce: true });
      return result.ok ? result : { ok: false, message: "must be a number" };
    }
    case "boolean":
      return checkFieldValue({ name: definition.name, type: "boolean" }, text, { coerce: true });
    case "datetime": {
      const normalized = normalizeDateTime(text);
      return normalized === null ? { ok: false, message: "must be an ISO 8601 date-time with a time zone" } : { ok: true, value: normalized };
    }
    case "enum":
      return definition.values.includes(text)
        ? { ok: true, value: text }
        : { ok: false, message: `must be one of ${definition.values.map((value) => JSON.stringify(value)).join(", ")}` };
    default:
      return { ok: false, message: "cannot be filtered" };
  }
}

const FILTER_KEY = /^filter\[([^\][]*)\](?:\[([^\][]*)\])?$/;
const SINGLE_PARAMETERS = new Set(["search", "sort", "page", "perPage", "expand", "total"]);

function readPositiveInteger(text: string): number | null {
  return /^[1-9]\d{0,8}$/.test(text) ? Number(text) : null;
}

export interface ParseListQueryOptions {
  schema: SchemaDefinition;
  params: URLSearchParams;
}

/**
 * Reads the list parameters of `GET /records/:schema`:
 * `filter[field]=value` (equality), `filter[field][op]=value` (eq, ne, gt, gte, lt, lte, in,
 * contains; `in` takes comma-separated values), `search=text`, `sort=-createdAt,title`,
 * `page`, `perPage` (1–100, default 20; a page starts at most 10,000 records in),
 * `expand=author,tags`, `total=false`.
 * Values are read as the field's type (numbers, true/false, ISO date-times). Anything unknown or
 * malformed throws AppError("bad_request") naming the parameter, so a typo never silently widens
 * a query.
 */
export function parseListQuery(options: ParseListQueryOptions): ListQuery {
  const { schema, params } = options;
  const issues: ErrorIssue[] = [];
  const seen = new Set<string>();
  const query: ListQuery = {
    where: [],
    search: null,
    sort: [...DEFAULT_SORT],
    page: 1,
    perPage: LIST_QUERY_LIMITS.defaultPerPage,
    expand: [],
    withTotal: true,
  };

  for (const [key, rawValue] of params) {
    const filterKey = FILTER_KEY.exec(key);
    if (filterKey) {
      readFilter(schema, key, filterKey[1] ?? "", filterKey[2], rawValue, query.where, issues);
      continue;
    }
    if (!SINGLE_PARAMETERS.has(key)) {
      issues.push({ path: key, message: "is not a known query parameter (filter[field], filter[field][op], search, sort, page, perPage, expand, total)" });
      continue;
    }
    if (seen.has(key)) {
      issues.push({ path: key, message: "is given more than once" });
      continue;
    }
    seen.add(key);
    switch (key) {
      case "search":
        readSearch(schema, rawValue, query, issues);
        break;
      case "sort":
        readSort(schema, rawValue, query, issues);
        break;
      case "page": {
        const page = readPositiveInteger(rawValue);
        if (page === null) issues.push({ path: "page", message: "must be a whole number of at least 1" });
        else query.page = page;
        break;
      }
      case "perPage": {
        const perPage = readPositiveInteger(rawValue);
        if (perPage === null || perPage > LIST_QUERY_LIMITS.maxPerPage) {
          issues.push({ path: "perPage", message: `must be a whole number from 1 to ${LIST_QUERY_LIMITS.maxPerPage}` });
        } else query.perPage = perPage;
        break;
      }
      case "expand":
        query.expand = readExpand(schema, rawValue, issues);
        break;
      case "total":
        if (rawValue !== "true" && rawValue !== "false") issues.push({ path: "total", message: "must be true or false" });
        else query.withTotal = rawValue === "true";
        break;
    }
  }

  if (query.where.length > LIST_QUERY_LIMITS.maxConditions) {
    issues.push({ path: "filter", message: `at most ${LIST_QUERY_LIMITS.maxConditions} filter conditions are allowed` });
  }
  if ((query.page - 1) * query.perPage > LIST_QUERY_LIMITS.maxOffset) {
    issues.push({
      path: "page",
      message: `pages may start at most ${LIST_QUERY_LIMITS.maxOffset.toLocaleString("en")} records in; to read further, page by id: sort=id&filter[id][gt]=<the last id of the previous page>`,
    });
  }
  if (issues.length > 0) {
    throw new AppError("bad_request", issues.map((issue) => `${issue.path}: ${issue.message}`).join("; "), { issues });
  }
  return query;
}

function readFilter(schema: SchemaDefinition, key: string, name: string, opText: string | undefined, rawValue: string, where: FieldCondition[], issues: ErrorIssue[]): void {
  const field = lookupField(schema, name);
  if (!field) {
    issues.push({ path: key, message: `"${name}" is not a field of ${schema.name}` });
    return;
  }
  const allowed = filterOps(field);
  if (allowed.length === 0) {
    issues.push({ path: key, message: `"${name}" cannot be filtered` });
    return;
  }
  const op = (opText ?? "eq") as FilterOp;
  if (!(ALL_OPS as readonly string[]).includes(op)) {
    issues.push({ path: key, message: `"${opText}" is not a filter operator (eq, ne, gt, gte, lt, lte, in, contains)` });
    return;
  }
  if (!allowed.includes(op)) {
    issues.push({ path: key, message: `"${op}" does not apply to "${name}" (use ${allowed.join(", ")})` });
    return;
  }
  if (op === "in") {
    const texts = rawValue.split(",");
    if (texts.length > LIST_QUERY_LIMITS.maxInValues) {
      issues.push({ path: key, message: `takes at most ${LIST_QUERY_LIMITS.maxInValues} values` });
      return;
    }
    const values: unknown[] = [];
    for (const text of texts) {
      const result = coerceFilterValue(field, op, text);
      if (!result.ok) {
        issues.push({ path: key, message: `${JSON.stringify(text)} ${result.message}` });
        return;
      }
      values.push(result.value);
    }
    where.push({ field: name, op, value: values });
    return;
  }
  if (op === "contains" && rawValue === "") {
    issues.push({ path: key, message: "needs some text to look for" });
    return;
  }
  const result = coerceFilterValue(field, op, rawValue);
  if (!result.ok) issues.push({ path: key, message: result.message });
  else where.push({ field: name, op, value: result.value });
}

function readSearch(schema: SchemaDefinition, rawValue: string, query: ListQuery, issues: ErrorIssue[]): void {
  const text = rawValue.trim();
  if (text === "") return;
  if (text.length > LIST_QUERY_LIMITS.maxSearchLength || text.includes("\u0000")) {
    issues.push({ path: "search", message: `must be at most ${LIST_QUERY_LIMITS.maxSearchLength} characters, without the NUL character` });
    return;
  }
  const fields = searchableFields(schema);
  if (fields.length === 0) {
    issues.push({ path: "search", message: `${schema.name} has no text fields to search` });
    return;
  }
  query.search = { text, fields };
}

function readSort(schema: SchemaDefinition, rawValue: string, query: ListQuery, issues: ErrorIssue[]): void {
  const parts = rawValue.split(",").map((part) => part.trim());
  if (parts.length > LIST_QUERY_LIMITS.maxSortFields) {
    issues.push({ path: "sort", message: `takes at most ${LIST_QUERY_LIMITS.maxSortFields} fields` });
    return;
  }
  const sort: SortSpec[] = [];
  for (const part of parts) {
    const descending = part.startsWith("-");
    const name = descending ? part.slice(1) : part;
    const field = lookupField(schema, name);
    if (!field) {
      issues.push({ path: "sort", message: name === "" ? "has an empty field name" : `"${name}" is not a field of ${schema.name}` });
      return;
    }
    if (field.kind === "field" && !SORTABLE_TYPES.has(field.definition.type)) {
      issues.push({ path: "sort", message: `"${name}" cannot be sorted by` });
      return;
    }
    if (sort.some((spec) => spec.field === name)) {
      issues.push({ path: "sort", message: `names "${name}" twice` });
      return;
    }
    sort.push({ field: name, direction: descending ? "desc" : "asc" });
  }
  // The id breaks ties so that paging is stable whatever the chosen order.
  if (!sort.some((spec) => spec.field === "id")) sort.push({ field: "id", direction: sort[sort.length - 1]?.direction ?? "asc" });
  query.sort = sort;
}

function readExpand(schema: SchemaDefinition, rawValue: string, issues: ErrorIssue[]): string[] {
  const names: string[] = [];
  for (const name of rawValue.split(",").map((part) => part.trim())) {
    if (name === "") continue;
    const field = effectiveFields(schema).find((candidate) => candidate.name === name);
    if (!field) {
      issues.push({ path: "expand", message: `"${name}" is not a field of ${schema.name}` });
    } else if (field.type !== "relation") {
      issues.push({ path: "expand", message: `"${name}" is not a relation field` });
    } else if (!names.includes(name)) {
      names.push(name);
    }
  }
  return names;
}

/** The record-store query for one page of a parsed list query. */
export function toFindQuery(query: ListQuery, options: { signal?: AbortSignal } = {}): FindQuery {
  const find: FindQuery = {
    where: query.where,
    sort: query.sort,
    skip: (query.page - 1) * query.perPage,
    limit: query.perPage,
  };
  if (query.search) find.search = query.search;
  if (options.signal) find.signal = options.signal;
  return find;
}
