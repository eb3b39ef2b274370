import type { CheckedCondition, CheckedMatch, CheckedSearch } from "../check-query";
import { isStorableValue } from "../normalize-document";
import { TEXT_PREFIX_LENGTH, TYPE_RANK, jsonOf, numberKey, searchedText, textKey, textOf, textPrefixKey, typeRankKey } from "./field-keys";
import { isSystemField } from "../record-names";

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

/**
 * Whether a field has an index of its own (an `indexed` field, field-keys.ts): its conditions are
 * then written in that index's keys, which the index serves and whose statistics PostgreSQL keeps,
 * so that it can also tell a filter matching most records from one matching a few.
 */
export type HasFieldIndex = (field: string) => boolean;

export const NO_FIELD_INDEXES: HasFieldIndex = () => false;

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
    // The scalar guard, as in equals(), lets a unique field's partial index look the values up.
    if (literals.length) parts.push(`(${jsonOf(field)} = ANY(ARRAY(SELECT jsonb_array_elements(${params.json(literals)}))) AND ${scalarGuard(field)})`);
    if (values.includes(null)) parts.push(isNullish(field));
  }
  return parts.length ? `(${parts.join(" OR ")})` : "FALSE";
}

function contains(field: string, text: string, params: SqlParams): string {
  const pattern = params.add(likePattern(text));
  if (field === "id") return `id ILIKE ${pattern} ESCAPE '\\'`;
  return `(jsonb_typeof(${jsonOf(field)}) = 'string' AND ${textOf(field)} ILIKE ${pattern} ESCAPE '\\')`;
}

/** `eq` in an indexed field's keys: the same matches as equals(). */
function equalsIndexed(field: string, value: unknown, params: SqlParams): string {
  if (!isStorableValue(value)) return "FALSE";
  if (value === null) return `${typeRankKey(field)} = ${TYPE_RANK.nullish}`;
  if (typeof value === "number") return `(${typeRankKey(field)} = ${TYPE_RANK.number} AND ${numberKey(field)} = ${params.json(value)}::numeric)`;
  if (typeof value === "string") {
    const head = `${typeRankKey(field)} = ${TYPE_RANK.string} AND ${numberKey(field)} IS NULL`;
    const characters = Array.from(value);
    // A text shorter than the prefix equals a value exactly when it equals the value's prefix.
    if (characters.length < TEXT_PREFIX_LENGTH) return `(${head} AND ${textPrefixKey(field)} = ${params.add(value)})`;
    return `(${head} AND ${textPrefixKey(field)} = ${params.add(characters.slice(0, TEXT_PREFIX_LENGTH).join(""))} AND ${textKey(field)} = ${params.add(value)})`;
  }
  if (typeof value === "boolean") return `(${typeRankKey(field)} = ${TYPE_RANK.boolean} AND ${jsonOf(field)} = ${params.json(value)})`;
  return equals(field, value, params);
}

const PREFIX_COMPARATORS = { gt: ">=", gte: ">=", lt: "<=", lte: "<=" } as const;

/** gt/gte/lt/lte in an indexed field's keys: the same matches as compare(). */
function compareIndexed(field: string, op: keyof typeof COMPARATORS, value: string | number, params: SqlParams): string {
  if (typeof value === "number") return `(${typeRankKey(field)} = ${TYPE_RANK.number} AND ${numberKey(field)} ${COMPARATORS[op]} ${params.json(value)}::numeric)`;
  const head = `${typeRankKey(field)} = ${TYPE_RANK.string} AND ${numberKey(field)} IS NULL`;
  const characters = Array.from(value);
  // Against a value shorter than the prefix, a text compares as its prefix does; a longer value
  // narrows by the prefix (not strictly) and then compares whole texts.
  if (characters.length < TEXT_PREFIX_LENGTH) return `(${head} AND ${textPrefixKey(field)} ${COMPARATORS[op]} ${params.add(value)})`;
  const prefix = params.add(characters.slice(0, TEXT_PREFIX_LENGTH).join(""));
  return `(${head} AND ${textPrefixKey(field)} ${PREFIX_COMPARATORS[op]} ${prefix} AND ${textKey(field)} ${COMPARATORS[op]} ${params.add(value)})`;
}

function isInIndexed(field: string, values: ReadonlyArray<string | number | boolean | null>, params: SqlParams): string {
  const parts = [...new Set(values)].map((value) => equalsIndexed(field, value, params)).filter((part) => part !== "FALSE");
  return parts.length ? `(${parts.join(" OR ")})` : "FALSE";
}

function indexedConditionSql(condition: CheckedCondition, params: SqlParams): string | undefined {
  switch (condition.op) {
    case "eq":
      return equalsIndexed(condition.field, condition.value, params);
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return compareIndexed(condition.field, condition.op, condition.value, params);
    case "in":
      return isInIndexed(condition.field, condition.value, params);
    default:
      return undefined;
  }
}

export function conditionSql(condition: CheckedCondition, params: SqlParams, hasFieldIndex: HasFieldIndex = NO_FIELD_INDEXES): string {
  // System fields have columns or indexes of their own, never a field index's keys.
  if (!isSystemField(condition.field) && hasFieldIndex(condition.field)) {
    const indexed = indexedConditionSql(condition, params);
    if (indexed !== undefined) return indexed;
  }
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

/**
 * A search: any of its fields holds the text. With a search index over exactly these fields, the
 * index's expression (the fields' text, one line each) is matched instead: a text without a line
 * break that occurs in it occurs within one line, that is in one field, so the answer is the same,
 * and the planner estimates the matches from that expression's statistics. A text with a line break
 * could span two fields, and `id` is compared in its own collation: then the per-field conditions
 * follow, so the index narrows and they decide.
 */
function searchSql(search: CheckedSearch, params: SqlParams, indexed: boolean): string {
  const pattern = likePattern(search.text);
  const placeholder = params.add(pattern);
  const narrowed = `${searchedText(search.fields)} ILIKE ${placeholder} ESCAPE '\\'`;
  if (indexed && !search.text.includes("\n") && !search.fields.includes("id")) return narrowed;
  const parts = search.fields.map((field) =>
    field === "id" ? `id ILIKE ${placeholder} ESCAPE '\\'` : `(jsonb_typeof(${jsonOf(field)}) = 'string' AND ${textOf(field)} ILIKE ${placeholder} ESCAPE '\\')`,
  );
  const exact = `(${parts.join(" OR ")})`;
  return indexed ? `(${narrowed} AND ${exact})` : exact;
}

/**
 * The WHERE clause body (never empty: "TRUE" when there is nothing to match). `hasSearchIndex`:
 * whether a search index over exactly the search's fields exists (sql-record-store.ts).
 */
export function whereSql(match: CheckedMatch, params: SqlParams, hasFieldIndex: HasFieldIndex = NO_FIELD_INDEXES, hasSearchIndex = false): string {
  const parts = match.where.map((condition) => conditionSql(condition, params, hasFieldIndex));
  if (match.search) parts.push(searchSql(match.search, params, hasSearchIndex));
  return parts.length ? parts.join(" AND ") : "TRUE";
}
