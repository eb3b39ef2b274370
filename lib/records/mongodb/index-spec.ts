import type { Document } from "mongodb";

/** BSON type aliases a unique index constrains; missing, null, objects and arrays are not. */
export const UNIQUE_VALUE_TYPES = ["string", "number", "bool"] as const;

export interface IndexSpec {
  key: Record<string, 1>;
  options: { name: string; unique?: true; partialFilterExpression?: Document };
}

export function uniqueIndexName(field: string): string {
  return `unique_${field}`;
}

/** The field a unique index stands for: our `unique_<field>` names, and `_id_` for the id. */
export function fieldFromIndexName(name: string): string | undefined {
  if (name === "_id_") return "id";
  return name.startsWith("unique_") && name.length > "unique_".length ? name.slice("unique_".length) : undefined;
}

/**
 * A real unique index on a top-level field, partial so that it behaves as on PostgreSQL: only
 * text, number and boolean values must be unique (several records may lack the field or hold
 * null). Equality filters carry the same $type clause so that MongoDB can use this index.
 */
export function uniqueIndexSpec(field: string): IndexSpec {
  return {
    key: { [field]: 1 },
    options: { name: uniqueIndexName(field), unique: true, partialFilterExpression: { [field]: { $type: [...UNIQUE_VALUE_TYPES] } } },
  };
}

/** Serves the default order (createdAt, then id); created with a collection's first insert. */
export const ORDER_INDEX: IndexSpec = { key: { createdAt: 1, _id: 1 }, options: { name: "created_order" } };

export function fieldIndexName(field: string): string {
  return `indexed_${field}`;
}

/** An `indexed` field's index: MongoDB's own order across types is the one the store promises. */
export function fieldIndexSpec(field: string): IndexSpec {
  return { key: { [field]: 1 }, options: { name: fieldIndexName(field) } };
}

export function lookupIndexName(field: string): string {
  return `lookup_${field}`;
}

/**
 * A lookup index (RecordStore.ensureLookupIndex): the field, then the id, over the records whose
 * value is text, a number or a boolean: the $type clause equality filters carry (build-filter.ts)
 * lets MongoDB use it, as with a unique index; records holding null are not in it.
 */
export function lookupIndexSpec(field: string): IndexSpec {
  return { key: { [field]: 1, _id: 1 }, options: { name: lookupIndexName(field), partialFilterExpression: { [field]: { $type: [...UNIQUE_VALUE_TYPES] } } } };
}
