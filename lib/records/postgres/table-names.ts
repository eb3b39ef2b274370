import { createHash } from "node:crypto";

/**
 * Record tables live in their own schema, so a customer database that already has tables of its
 * own (a `users` table, say) never collides with ours.
 */
export const RECORDS_SCHEMA = "flowpoint_records";

// PostgreSQL cuts identifiers at 63 bytes; longer names get a hash suffix instead of colliding.
const MAX_IDENTIFIER = 63;

// Index names are worked out on every query that filters or sorts on a field (does an index serve
// it?): the few names a process meets are hashed once, not on every call.
const hashes = new Map<string, string>();
const HASHES_MAX = 10_000;

function shortHash(text: string, length: number): string {
  let hash = hashes.get(text);
  if (hash === undefined) {
    if (hashes.size >= HASHES_MAX) hashes.clear();
    hash = createHash("sha256").update(text).digest("hex");
    hashes.set(text, hash);
  }
  return hash.slice(0, length);
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

function fieldIndexPrefix(collection: string, field: string): string {
  return `${collection.slice(0, 22)}_${field.slice(0, 22)}_${shortHash(`${collection}\u0000${field}`, 12)}`;
}

/**
 * The two indexes of an `indexed` field (field-keys.ts, fieldIndexColumns), named like its unique
 * index with suffixes of their own: `_a` serves conditions and ascending sorts, `_d` descending sorts.
 */
export function fieldIndexNames(collection: string, field: string): { ascending: string; descending: string } {
  const prefix = fieldIndexPrefix(collection, field);
  return { ascending: `${prefix}_a`, descending: `${prefix}_d` };
}

/**
 * The single index an `indexed` field had before its indexes held the tie-breakers: its columns
 * lead the ascending index's, so conditions written for either are served; the store replaces it.
 */
export function legacyFieldIndexName(collection: string, field: string): string {
  return `${fieldIndexPrefix(collection, field)}_i`;
}

/** The suffix of search indexes, by which a collection's are told from its other indexes. */
export const SEARCH_INDEX_SUFFIX = "_search";

/** The trigram index of a search over `fields` (field-keys.ts, searchedText), one per field list. */
export function searchIndexName(collection: string, fields: readonly string[]): string {
  return `${collection.slice(0, 36)}_${shortHash(`${collection}\u0000${fields.join("\u0000")}`, 12)}${SEARCH_INDEX_SUFFIX}`;
}
