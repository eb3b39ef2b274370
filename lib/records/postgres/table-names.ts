import { createHash } from "node:crypto";

/**
 * Record tables live in their own schema, so a customer database that already has tables of its
 * own (a `users` table, say) never collides with ours.
 */
export const RECORDS_SCHEMA = "flowpoint_records";

// PostgreSQL cuts identifiers at 63 bytes; longer names get a hash suffix instead of colliding.
const MAX_IDENTIFIER = 63;

function shortHash(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The table of a collection: the collection's own name, or a hashed form past 63 characters. */
export function tableName(collection: string): string {
  return collection.length <= MAX_IDENTIFIER ? collection : `${collection.slice(0, 50)}_${shortHash(collection, 12)}`;
}

export function qualifiedTable(collection: string): string {
  return `${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(tableName(collection))}`;
}

/**
 * The unique index (or, for `id`, the primary key constraint) of a field. Readable prefix plus a
 * hash of both names: index names share one namespace per schema, and "a__b" + "c" must not
 * collide with "a" + "b__c".
 */
export function uniqueIndexName(collection: string, field: string): string {
  return `${collection.slice(0, 22)}_${field.slice(0, 22)}_${shortHash(`${collection}\u0000${field}`, 12)}_u`;
}

/** The index behind the default order (createdAt, id). */
export function orderIndexName(collection: string): string {
  return `${collection.slice(0, 40)}_${shortHash(collection, 12)}_order`;
}

/** The index of an `indexed` field (field-keys.ts), named like its unique index with its own suffix. */
export function fieldIndexName(collection: string, field: string): string {
  return `${collection.slice(0, 22)}_${field.slice(0, 22)}_${shortHash(`${collection}\u0000${field}`, 12)}_i`;
}
