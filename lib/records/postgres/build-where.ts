import type { CheckedCondition, CheckedMatch, CheckedSearch } from "../check-query";
import { isStorableValue } from "../normalize-document";

/** Collects parameter values and hands out their $n placeholders. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A JSON value as a jsonb parameter. */
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }
}

// Field names are checked against ^[A-Za-z_][A-Za-z0-9_]*$ before they get here, so they can be
// written into the SQL as literals, which lets PostgreSQL use the expression indexes on them.
function jsonOf(field: string): string {
  return `(doc->'${field}')`;
}

function textOf(field: string): string {
  return `(doc->>'${field}')`;
}

/** `%text%` for ILIKE with the LIKE wildcards and the escape character taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The predicate of a unique index: only text, numbers and booleans are constrained. Equality
 * conditions repeat it word for word so that PostgreSQL can prove the partial index applies.
 */
export function scalarGuard(field: string): string {
  return `jsonb_typeof(doc->'${field}') IN ('string', 'number', 'boolean')`;
}

function isNullish(field: string): string {
  return `(${jsonOf(field)} IS NULL OR ${jsonOf(field)} = 'null'::jsonb)`;
}

function equals(field: string, value: unknown, params: SqlParams): string {
  if (!isStorableValue(value)) return "FALSE";
  if (value === null) return isNullish(field);
  if (field === "id") return typeof value === "string" ? `id = ${params.add(value)}` : "FALSE";
  const equal = `${jsonOf(field)} = ${params.json(value)}`;
  return typeof value === "object" ? equal : `(${equal} AND ${scalarGuard(field)})`;
}

function notEquals(field: string, value: unknown, params: SqlParams): string {
  if (!isStorableValue(value)) return "TRUE";
  if (value === null) return `(${jsonOf(field)} IS NOT NULL AND ${jsonOf(field)} <> 'null'::jsonb)`;
  if (field === "id") return typeof value === "string" ? `id <> ${params.add(value)}` : "TRUE";
  return `${jsonOf(field)} IS DISTINCT FROM ${params.json(value)}`;
}

const COMPARATORS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

function compare(field: string, op: keyof typeof COMPARATORS, value: string | number, params: SqlParams): string {
  const operator = COMPARATORS[op];
  // Numbers compare numerically (jsonb compares numbers as numeric); text compares byte-wise
  // (COLLATE "C", as MongoDB does), so ISO 8601 timestamps sort as time. Other types never match.
  if (typeof value === "number") return `(jsonb_typeof(${jsonOf(field)}) = 'number' AND ${jsonOf(field)} ${operator} ${params.json(value)})`;
  if (field === "id") return `id ${operator} ${params.add(value)}`;
  return `(jsonb_typeof(${jsonOf(field)}) = 'string' AND ${textOf(field)} COLLATE "C" ${operator} ${params.add(value)})`;
}

function isIn(field: string, values: ReadonlyArray<string | number | boolean | null>, params: SqlParams): string {
  const literals = values.filter((value) => value !== null && isStorableValue(value));
  const parts: string[] = [];
  if (field === "id") {
    const ids = literals.filter((value): value is string => typeof value === "string");
    if (ids.length) parts.push(`id IN (SELECT jsonb_array_elements_text(${params.json(ids)}))`);
  } else {
    if (literals.length) parts.push(`${jsonOf(field)} IN (SELECT value FROM jsonb_array_elements(${params.json(literals)}))`);
    if (values.includes(null)) parts.push(isNullish(field));
  }
  return parts.length ? `(${parts.join(" OR ")})` : "FALSE";
}

function contains(field: string, text: string, params: SqlParams): string {
  const pattern = params.add(likePattern(text));
  if (field === "id") return `id ILIKE ${pattern} ESCAPE '\\'`;
  return `(jsonb_typeof(${jsonOf(field)}) = 'string' AND ${textOf(field)} ILIKE ${pattern} ESCAPE '\\')`;
}

export function conditionSql(condition: CheckedCondition, params: SqlParams): string {
  switch (condition.op) {
    case "eq":
      return equals(condition.field, condition.value, params);
    case "ne":
      return notEquals(condition.field, condition.value, params);
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return compare(condition.field, condition.op, condition.value, params);
    case "in":
      return isIn(condition.field, condition.value, params);
    case "contains":
      return contains(condition.field, condition.value, params);
  }
}

function searchSql(search: CheckedSearch, params: SqlParams): string {
  const pattern = likePattern(search.text);
  const placeholder = params.add(pattern);
  const parts = search.fields.map((field) =>
    field === "id"
      ? `id ILIKE ${placeholder} ESCAPE '\\'`
      : `(jsonb_typeof(${jsonOf(field)}) = 'string' AND ${textOf(field)} ILIKE ${placeholder} ESCAPE '\\')`,
  );
  return `(${parts.join(" OR ")})`;
}

/** The WHERE clause body (never empty: "TRUE" when there is nothing to match). */
export function whereSql(match: CheckedMatch, params: SqlParams): string {
  const parts = match.where.map((condition) => conditionSql(condition, params));
  if (match.search) parts.push(searchSql(match.search, params));
  return parts.length ? parts.join(" AND ") : "TRUE";
}
