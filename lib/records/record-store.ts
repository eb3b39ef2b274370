/**
 * The customer database ("record store"): one interface, implemented for PostgreSQL (JSONB
 * documents), PGlite (the same implementation over an embedded directory per project) and MongoDB.
 * Every implementation passes the contract suite in record-store.contract.ts. Get one with
 * getRecordStore(target) from get-record-store.ts; README.md beside this file has the details.
 *
 * Filters are typed values built by our code, never raw caller JSON: a condition's value is always
 * a literal (an object value such as {"$ne": null} is compared as that object, not read as an
 * operator; since no stored record can hold such a key, it matches nothing).
 *
 * Errors are AppError: validation_failed (bad collection, field, key, value or query, with
 * issues[].path), unique_violation (with `field`), timeout (signal or timeoutMs), unavailable
 * (cannot reach the database, or the store was closed), internal (anything else; message generic).
 */

/**
 * How a condition compares the field's whole value (an array field never equals a scalar):
 * - eq / ne: JSON equality; numbers compare numerically (1 = 1.0) and types never mix ("5" ≠ 5).
 *   `eq null` matches a missing field or null; `ne null` matches present, non-null values.
 *   An object literal compares the whole object (on MongoDB its key order counts too).
 * - gt / gte / lt / lte: the value is a number (matches numeric fields, numerically) or text
 *   (matches text fields, byte-wise, so ISO 8601 timestamps compare as time).
 * - in: an array of text, numbers, booleans or null; matches a field equal to any of them.
 * - contains: text; a case-insensitive substring of a text field (wildcards are literal).
 */
import type { ClaimOptions, DatabaseOwner, OwnershipClaim } from "./database-owner";
import type { OperationOptions } from "./operation-options";

export type { ClaimOptions, DatabaseOwner, OwnershipClaim } from "./database-owner";
export type { OperationOptions } from "./operation-options";

export type FilterOp = "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "in" | "contains";

export interface FieldCondition {
  /** A top-level field name, or a system field (id, createdAt, updatedAt). */
  field: string;
  op: FilterOp;
  /** A JSON literal; for `in`, an array of literals; for `contains`, a string (case-insensitive substring). */
  value: unknown;
}

/**
 * Sorting compares numbers numerically and text byte-wise; missing and null come first when
 * ascending; across types: null, numbers, text, objects, arrays, booleans. Every sort ends with
 * createdAt then id ascending, so results are deterministic.
 */
export interface SortSpec {
  field: string;
  direction: "asc" | "desc";
}

export interface MatchQuery extends OperationOptions {
  /** All conditions must hold (at most 50). */
  where?: FieldCondition[];
  /** Case-insensitive substring match of `text` in any of `fields` (text fields only). Empty text: no search. */
  search?: { text: string; fields: string[] };
}

export interface CountQuery extends MatchQuery {
  /** Counts at most this many matches (a whole number ≥ 0), so that a count stays cheap on a large collection. */
  limit?: number;
}

export interface FindQuery extends MatchQuery {
  /** Default: createdAt, then id, ascending. */
  sort?: SortSpec[];
  skip?: number;
  /** No limit when absent; 0 answers [] without a query. */
  limit?: number;
}

/**
 * An outbox entry written with a record write (automations' record events): on PostgreSQL and
 * PGlite in the same statement, so the entry exists exactly when the write happened; on MongoDB
 * right after the write (no transactions on a standalone server), so a process dying between the
 * two loses the entry. The stored entry is `{id, event, record, previous, createdAt, updatedAt}`:
 * `record` is the record as written (for a delete, as it was), `previous` the record an update
 * replaced (else null). Nothing is written when the write changes nothing (no match).
 */
export interface OutboxWrite {
  /** The outbox's collection. */
  collection: string;
  /** The entry's id (1-128 of A-Z a-z 0-9 _ -). */
  id: string;
  /** What the entry is about (JSON), stored as `event`. */
  event: Record<string, unknown>;
}

/** Options of RecordStore.ensureSearchIndex. */
export interface SearchIndexOptions extends OperationOptions {
  /**
   * Adjusts an existing search index to the field list, but builds none for a collection that has
   * none (one never searched: its first search builds it, see
   * lib/records-service/index-search-on-first-use.ts).
   */
  onlyWhereIndexed?: boolean;
}

export interface WriteOptions extends OperationOptions {
  outbox?: OutboxWrite;
}

/** A stored document: the caller's fields plus the system fields. */
export type StoredRecord = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };

export interface UpdateResult {
  matched: boolean;
  /** The record after the update, or null when nothing matched. */
  record: StoredRecord | null;
  /** The record before the update, or null when nothing matched. */
  previous: StoredRecord | null;
}

export interface RecordStore {
  readonly kind: "postgres" | "pglite" | "mongodb";
  /** Counts database round trips, so tests can show that expansion does not grow with page size. */
  readonly metrics: { queries: number };

  /**
   * Stores a document. `id` is kept (1-128 of A-Z a-z 0-9 _ -) or assigned with newId("record");
   * createdAt = updatedAt = now (ISO 8601). createdAt, updatedAt and _id in the document are
   * refused, as are keys starting with "$" or containing "." at any depth, NUL characters and
   * unpaired UTF-16 surrogates (in text and keys), and non-JSON values. Dates become ISO text;
   * undefined members are dropped. Answers the record as stored. A taken id or unique value:
   * unique_violation with `field`.
   */
  insert(collection: string, document: Record<string, unknown>, options?: WriteOptions): Promise<StoredRecord>;
  /**
   * Stores up to 1000 documents in one round trip (batched execution logs, imports), each checked
   * as by insert (issues[].path starts with the document's index: "3.title"). PostgreSQL and
   * PGlite store all or none. MongoDB stores in order and stops at the first taken id or unique
   * value, so the documents before it stay stored. Answers the records in the given order.
   */
  insertMany(collection: string, documents: Record<string, unknown>[], options?: OperationOptions): Promise<StoredRecord[]>;
  find(collection: string, query?: FindQuery): Promise<StoredRecord[]>;
  count(collection: string, query?: CountQuery): Promise<number>;
  /**
   * One query for any number of ids (relation expansion). Answers the records in the order of
   * `ids`, each once; missing ids are simply absent; [] without a query for no ids.
   */
  findByIds(collection: string, ids: string[], options?: OperationOptions): Promise<StoredRecord[]>;
  /**
   * Shallow-merges `changes` into the first match (sorted by createdAt, then id): each top-level
   * field is replaced whole; null stays null. Sets updatedAt. System fields cannot be changed.
   * `previous` is exactly the record the update replaced (it is read under the same lock).
   */
  updateFirst(collection: string, where: FieldCondition[], changes: Record<string, unknown>, options?: WriteOptions): Promise<UpdateResult>;
  /**
   * Deletes every match (an empty `where` deletes every record); answers how many were deleted. With
   * an outbox entry, at most one record may match (a second would take the entry's id:
   * unique_violation, nothing deleted).
   */
  deleteMany(collection: string, where: FieldCondition[], options?: WriteOptions): Promise<number>;
  /**
   * Creates a real unique index on a top-level field (idempotent; a no-op for id). Only text,
   * number and boolean values are constrained: any number of records may lack the field or hold
   * null. Existing duplicates make it fail with AppError("unique_violation") naming the field and
   * a duplicate value in the message.
   */
  ensureUniqueIndex(collection: string, field: string, options?: OperationOptions): Promise<void>;
  dropUniqueIndex(collection: string, field: string, options?: OperationOptions): Promise<void>;
  /**
   * Creates a real index on a top-level field (an `indexed` schema field; idempotent; a no-op for
   * the system fields, which have theirs), so that its conditions (eq, in, gt/gte/lt/lte) and its
   * sort are served without reading the whole collection. Answers never change with it. PostgreSQL
   * and PGlite: an expression index on the field's sort keys, with statistics gathered at once;
   * MongoDB: `createIndex({field: 1})`. Building it on a large collection takes a while.
   */
  ensureFieldIndex(collection: string, field: string, options?: OperationOptions): Promise<void>;
  dropFieldIndex(collection: string, field: string, options?: OperationOptions): Promise<void>;
  /**
   * Creates a lookup index on a top-level field of a platform collection queried by that field (the
   * execution log by endpoint or automation; idempotent; a no-op for system fields): non-unique,
   * over the field's text, number and boolean values followed by the id, so that `eq` conditions on
   * the field are looked up and their matches come in id order without a sort. Records whose field
   * is missing or null are not in it, so they cost it nothing on insert. Answers never change with
   * it. PostgreSQL and PGlite: a partial expression index; MongoDB: a partial createIndex. Built
   * once per store: later calls answer the first one's outcome (a failure is tried again).
   */
  ensureLookupIndex(collection: string, field: string, options?: OperationOptions): Promise<void>;
  /**
   * Makes a search over exactly `fields` (in that order; a schema's searchable fields) served by an
   * index, and drops the collection's search indexes over other field lists; an empty list drops
   * them all. Answers never change with it. PostgreSQL and PGlite: a pg_trgm GIN index on the
   * fields' text (installed when the database ships pg_trgm and the role may; otherwise nothing
   * happens and search reads the filtered records). MongoDB: nothing (no index serves a
   * case-insensitive substring there). Building it on a large collection takes a while.
   */
  ensureSearchIndex(collection: string, fields: readonly string[], options?: SearchIndexOptions): Promise<void>;
  /**
   * Refreshes what the database's query planner knows of a collection after a bulk write (PostgreSQL
   * and PGlite: ANALYZE, which PGlite has no autovacuum to run; MongoDB: nothing, its planner learns
   * by trying). Fine when the collection does not exist.
   */
  refreshStatistics(collection: string, options?: OperationOptions): Promise<void>;
  /**
   * Gives the space of deleted records back for new ones, in a collection that is written and
   * deleted from all the time (the automation outbox): on a database that vacuums nothing by itself
   * (PGlite; a server with autovacuum off or behind) the table would otherwise grow by every deleted
   * record, and every read would scan those records again. PostgreSQL and PGlite: VACUUM, skipped
   * while another session vacuums the table. MongoDB: nothing (WiredTiger reuses a deleted
   * document's space). Fine when the collection does not exist.
   */
  reclaimDeletedSpace(collection: string, options?: OperationOptions): Promise<void>;
  /** Removes a collection with its documents and indexes (fine when it does not exist). */
  dropCollection(collection: string, options?: OperationOptions): Promise<void>;
  ping(options?: OperationOptions): Promise<void>;
  /**
   * The project this database belongs to: the `_flowpoint` marker (database-owner.ts), or null when
   * no project claimed it yet. Reads only; creates nothing.
   */
  readOwner(options?: OperationOptions): Promise<DatabaseOwner | null>;
  /**
   * Claims this database for a project and answers the marker. Atomic: of several projects racing
   * for one unclaimed database exactly one wins. Claiming again for the same project changes
   * nothing. A marker naming another project: AppError("conflict") (the message never names it),
   * unless `takeOver`, which rewrites the marker for this project. Not counted in metrics.queries:
   * the pool (get-record-store.ts) claims once when it opens a store, outside the caller's work.
   */
  claimOwnership(claim: OwnershipClaim, options?: ClaimOptions): Promise<DatabaseOwner>;
  /** Closes the connections; later operations answer unavailable. Closing twice is fine. */
  close(): Promise<void>;
}
