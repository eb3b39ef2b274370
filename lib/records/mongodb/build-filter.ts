import type { Document } from "mongodb";
import type { CheckedCondition, CheckedMatch, CheckedSearch } from "../check-query";
import { isStorableValue } from "../normalize-document";
import { UNIQUE_VALUE_TYPES } from "./index-spec";

/** Every document has an _id, so this matches none (a literal that could never be stored). */
export const MATCH_NOTHING: Document = { _id: { $exists: false } };

/** Our `id` lives in MongoDB's `_id`. */
export function mongoField(field: string): string {
  return field === "id" ? "_id" : field;
}

/**
 * MongoDB applies most operators to each element of an array field too ({tags: {$eq: "a"}}
 * matches ["a", "b"]); our filters compare the field's whole value, as on PostgreSQL, so every
 * operator on a user field also says "not an array". `_id` is never an array.
 */
function onField(field: string, operators: Document): Document {
  const name = mongoField(field);
  return { [name]: name === "_id" ? operators : { ...operators, $not: { $type: "array" } } };
}

/** Regular-expression metacharacters taken literally (the text is matched as a substring). */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function equals(field: string, value: unknown): Document {
  if (!isStorableValue(value)) return MATCH_NOTHING;
  if (Array.isArray(value)) {
    // {$eq: [..]} would also match an array that merely contains this array as an element.
    return { $expr: { $eq: [`$${mongoField(field)}`, { $literal: value }] } };
  }
  if (value === null || typeof value === "object" || field === "id") return onField(field, { $eq: value });
  // The $type clause repeats the unique index's partial filter so the index can serve this query.
  return onField(field, { $eq: value, $type: [...UNIQUE_VALUE_TYPES] });
}

export function conditionFilter(condition: CheckedCondition): Document {
  const { field } = condition;
  switch (condition.op) {
    case "eq":
      return equals(field, condition.value);
    case "ne":
      return isStorableValue(condition.value) ? { $nor: [equals(field, condition.value)] } : {};
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      // MongoDB compares within one type only: numbers numerically, strings byte-wise.
      return onField(field, { [`$${condition.op}`]: condition.value });
    case "in": {
      let values = condition.value.filter((value) => isStorableValue(value));
      if (field === "id") values = values.filter((value) => typeof value === "string");
      return values.length ? onField(field, { $in: values }) : MATCH_NOTHING;
    }
    case "contains":
      return onField(field, { $regex: escapeRegex(condition.value), $options: "i" });
  }
}

function searchFilter(search: CheckedSearch): Document {
  const pattern = escapeRegex(search.text);
  return { $or: search.fields.map((field) => onField(field, { $regex: pattern, $options: "i" })) };
}

/** The query document for a checked match: built from typed conditions only, never caller JSON. */
export function buildFilter(match: CheckedMatch): Document {
  const parts = match.where.map(conditionFilter);
  if (match.search) parts.push(searchFilter(match.search));
  if (parts.length === 0) return {};
  return parts.length === 1 ? (parts[0] as Document) : { $and: parts };
}
