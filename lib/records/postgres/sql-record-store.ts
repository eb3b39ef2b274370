import { LightAbortController } from "@/lib/abort/light-abort-controller";
import { AppError } from "@/lib/errors";
import { checkConditions, checkCountLimit, checkFindQuery, checkIds, checkMatchQuery, checkSearchFields, completeSort, type CheckedSearch } from "../check-query";
import { textProblem } from "../normalize-document";
import { prepareChanges } from "../prepare-changes";
import { prepareInsert, prepareInsertMany } from "../prepare-insert";
import { orderByIds, orderRecordKeys } from "../order-stored-records";
import { assertCollectionName, assertFieldName, isSystemField } from "../record-names";
import type { OperationOptions, OutboxWrite, RecordStore, SortSpec, StoredRecord, UpdateResult } from "../record-store";
import { log } from "@/lib/log";
import { DEFAULT_OPERATION_TIMEOUT_MS, runWithDeadline, type Deadline } from "../run-with-deadline";
import { orderBySql } from "./build-order-by";
import { NO_FIELD_INDEXES, SqlParams, scalarGuard, whereSql, type HasFieldIndex } from "./build-where";
import { fieldIndexColumns, searchedText } from "./field-keys";
import { createLookupIndexSql, lookupIndexName } from "./lookup-index";
import { isConcurrentCreation, isMissingTable, isUniqueViolation, mapPgError, violatedConstraint } from "./map-pg-error";
import type { QueryOptions, SqlExecutor, SqlResult } from "./sql-executor";
import { createWriteBatcher, RECORD_INSERT_BATCHING } from "@/lib/batching/write-batcher";
import {
  RECORDS_SCHEMA,
  SEARCH_INDEX_SUFFIX,
  fieldIndexNames,
  legacyFieldIndexName,
  orderIndexName,
  qualifiedTable,
  quoteIdentifier,
  searchIndexName,
  tableName,
  uniqueIndexName,
} from "./table-names";
import { checkOwnershipClaim, settleClaim, toDatabaseOwner, type DatabaseOwner } from "../database-owner";
import { CREATE_OWNER_TABLE, INSERT_OWNER, SELECT_OWNER, TAKE_OVER_OWNER } from "./owner-sql";
import { oncePerKey } from "../once-per-key";

export interface SqlRecordStoreOptions {
  executor: SqlExecutor;
  kind: "postgres" | "pglite";
  /** Applies to operations called without timeoutMs. */
  defaultTimeoutMs?: number;
}

const DEFAULT_ORDER = orderBySql(completeSort([]));
const CREATION_ATTEMPTS = 3;
/**
 * How long a collection's list of indexes is reused. Another instance's new field index is used
 * here at most this much later; until then conditions are written as before (same answers).
 */
const INDEX_CATALOG_MAX_AGE_MS = 30_000;
const INDEX_CATALOG_TIMEOUT_MS = 10_000;
/**
 * How long replacing a field's legacy index (legacyFieldIndexName) may take in the background:
 * building the two indexes reads the whole collection twice, about 2.5 s per 100,000 records here.
 */
const LEGACY_INDEX_UPGRADE_TIMEOUT_MS = 30 * 60_000;
/**
 * A search index's pending list, in kB (PostgreSQL's default is 4 MB). New entries of a GIN index
 * wait in that list, and the insert that finds it full moves all of it into the index before it
 * answers: at 1,000 inserts a second into a table with text search, one insert every 3–4 s took
 * 135–190 ms instead of a few, and held an automation's run slot meanwhile. A list 16 times
 * smaller is emptied 16 times as often, each time quickly enough to vanish among the other inserts,
 * at the same CPU per insert (bench/README.md, "2026-12-04 (late)").
 */
const SEARCH_INDEX_PENDING_LIST_OPTION = "gin_pending_list_limit=256";

/** Whether an index's storage options (pg_class.reloptions) hold the search index's pending list cap. */
function hasPendingListCap(reloptions: unknown): boolean {
  return Array.isArray(reloptions) && reloptions.includes(SEARCH_INDEX_PENDING_LIST_OPTION);
}

/** Operators an indexed field's keys serve (build-where.ts). */
const INDEX_SERVED_OPS: ReadonlySet<string> = new Set(["eq", "in", "gt", "gte", "lt", "lte"]);

function uniqueViolation(collection: string, error: unknown, candidates: string[]): AppError {
  const constraint = violatedConstraint(error);
  const field = candidates.find((name) => uniqueIndexName(collection, name) === constraint);
  const message = field ? `"${field}" must be unique: another record already has this value` : "another record already has this value";
  return new AppError("unique_violation", message, { field, cause: error });
}

/**
 * The statement that stores an outbox entry beside a write, as the last CTE of the write's own
 * statement (so both happen or neither does): one entry per row of `source`, which has the
 * columns `record` and `previous` (jsonb). Adds its parameters to `params`.
 */
function outboxInsertSql(outbox: OutboxWrite, source: string, params: SqlParams): string {
  const id = params.add(outbox.id);
  const now = params.add(new Date().toISOString());
  const event = params.json(outbox.event);
  return (
    `INSERT INTO ${qualifiedTable(outbox.collection)} (id, doc) SELECT ${id}::text, jsonb_build_object(` +
    `'id', ${id}::text, 'createdAt', ${now}::text, 'updatedAt', ${now}::text, 'event', ${event}, 'record', record, 'previous', previous) FROM ${source}`
  );
}

/**
 * The statement that stores the outbox entries of a batch of inserts, as the last part of the
 * batch's statement: `$2` lists each entry's id, record id and event; the record is taken from the
 * rows `written` returns (id, doc), so it is not sent twice. Stores what outboxInsertSql stores.
 */
function batchOutboxInsertSql(outboxCollection: string): string {
  return (
    `INSERT INTO ${qualifiedTable(outboxCollection)} (id, doc) SELECT entry->>'id', jsonb_build_object(` +
    `'id', entry->>'id', 'createdAt', entry->>'at', 'updatedAt', entry->>'at', 'event', entry->'event', 'record', written.doc, 'previous', NULL::jsonb) ` +
    `FROM jsonb_array_elements($2::jsonb) AS entry JOIN written ON written.id = entry->>'recordId'`
  );
}

/** An entry of batchOutboxInsertSql's `$2`. */
function batchOutboxEntry(outbox: OutboxWrite, record: StoredRecord, at: string): Record<string, unknown> {
  return { id: outbox.id, recordId: record.id, at, event: outbox.event };
}

/** One statement of index maintenance, run by a caller's operation or in the background. */
type RunStatement = (sql: string, params?: unknown[]) => Promise<SqlResult>;

/**
 * Which indexes a query can be written for: fields' indexes for their conditions (either index
 * shape) and for their sorts (the current shape), and a search index over the search's fields.
 */
interface QueryIndexes {
  conditions: HasFieldIndex;
  sorts: HasFieldIndex;
  search: boolean;
}

const NO_INDEXES: QueryIndexes = { conditions: NO_FIELD_INDEXES, sorts: NO_FIELD_INDEXES, search: false };

const FREQUENT: QueryOptions = { frequent: true };

/** A write waiting in the store's batcher (lib/batching/write-batcher.ts) for the rest of its event-loop turn. */
interface QueuedInsert {
  collection: string;
  record: StoredRecord;
  outbox: OutboxWrite | undefined;
  deadline: Deadline;
}

/**
 * The deadline of a batch statement: the least time any of its writes has left, on a signal of its
 * own, so that one caller giving up does not cancel the others' writes. Its timer is cleared when
 * the statement ends (`dispose`), rather than held for up to 30 s as AbortSignal.timeout's would be.
 */
function earliestDeadline(deadlines: readonly Deadline[]): Deadline & { dispose(): void } {
  const remaining = Math.min(...deadlines.map((deadline) => deadline.remainingMs()));
  const endsAt = performance.now() + remaining;
  const controller = new LightAbortController();
  const timer = setTimeout(() => controller.abort(), remaining);
  return {
    signal: controller.signal,
    remainingMs: () => Math.max(1, Math.ceil(endsAt - performance.now())),
    dispose: () => clearTimeout(timer),
  };
}

function checkOutbox(outbox: OutboxWrite | undefined): void {
  if (!outbox) return;
  assertCollectionName(outbox.collection);
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(outbox.id))
    throw new AppError("validation_failed", "invalid outbox entry id", { issues: [{ path: "outbox.id", message: "must be 1-128 of A-Z a-z 0-9 _ -" }] });
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The record store over PostgreSQL, shared by the `pg` pool and PGlite through SqlExecutor.
 *
 * Layout: schema `flowpoint_records`, one table per collection, created on first write:
 * `(id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)` where `doc` holds the whole record
 * including id, createdAt and updatedAt, plus an index on (createdAt, id) for the default order.
 * A unique field is a partial unique expression index on `doc->'field'` over string, number and
 * boolean values (missing, null, objects and arrays are not constrained). An indexed field has two
 * expression indexes on its sort keys and tie-breakers (field-keys.ts); conditions and sorts on it
 * are written in those keys once the store has seen the indexes in the catalog (build-where.ts,
 * build-order-by.ts). A field index of the earlier shape is replaced in the background the first
 * time a query on that field sees it. Reading a collection
 * that was never written answers empty results without creating anything.
 */
export function createSqlRecordStore(options: SqlRecordStoreOptions): RecordStore {
  const { executor } = options;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  const metrics = { queries: 0 };
  let closed = false;
  const indexCatalog = new Map<string, { loadedAt: number; names: Promise<ReadonlySet<string>> }>();
  const lookupIndexOnce = oncePerKey();

  /**
   * The names of a collection's indexes, read from the catalog at most every 30 s. Not counted in
   * metrics.queries: it is not the caller's work, and most calls find it cached.
   */
  function indexNames(collection: string): Promise<ReadonlySet<string>> {
    const cached = indexCatalog.get(collection);
    if (cached && Date.now() - cached.loadedAt < INDEX_CATALOG_MAX_AGE_MS) return cached.names;
    const names = executor
      .query("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2", [RECORDS_SCHEMA, tableName(collection)], AbortSignal.timeout(INDEX_CATALOG_TIMEOUT_MS))
      .then((result): ReadonlySet<string> => new Set(result.rows.map((row) => String(row.indexname))));
    const entry = { loadedAt: Date.now(), names };
    indexCatalog.set(collection, entry);
    names.catch(() => {
      if (indexCatalog.get(collection) === entry) indexCatalog.delete(collection);
    });
    return names;
  }

  /**
   * Which indexes can serve a query: its conditions' and its sort's fields', and its search's; the
   * catalog is read only when one could. A field whose index still has the earlier shape gets it
   * replaced.
   */
  async function indexesFor(
    collection: string,
    conditions: readonly { field: string; op: string }[],
    sort: readonly SortSpec[] = [],
    search?: CheckedSearch,
  ): Promise<QueryIndexes> {
    const fields = new Set([...conditions.filter((condition) => INDEX_SERVED_OPS.has(condition.op)).map((condition) => condition.field), ...sort.map((spec) => spec.field)]);
    for (const field of fields) if (isSystemField(field)) fields.delete(field);
    if (fields.size === 0 && !search) return NO_INDEXES;
    const names = await indexNames(collection);
    for (const field of fields) {
      if (names.has(legacyFieldIndexName(collection, field)) && !names.has(fieldIndexNames(collection, field).ascending)) upgradeLegacyFieldIndex(collection, field);
    }
    return {
      conditions: (field) => names.has(fieldIndexNames(collection, field).ascending) || names.has(legacyFieldIndexName(collection, field)),
      sorts: (field) => {
        const current = fieldIndexNames(collection, field);
        return names.has(current.ascending) || names.has(current.descending);
      },
      search: search !== undefined && names.has(searchIndexName(collection, search.fields)),
    };
  }

  /**
   * Builds a field's two indexes (fieldIndexColumns) and drops the single index of the earlier
   * shape. On a server, writes to the collection go on while the indexes are built or dropped
   * (CONCURRENTLY). A build that failed or was cancelled leaves an invalid index behind, which IF
   * NOT EXISTS would keep: it is dropped first. PGlite serves one connection: there is nobody to
   * let through. Conditions are written the same for both shapes, so queries answer throughout.
   */
  async function buildFieldIndexes(collection: string, field: string, run: RunStatement): Promise<void> {
    const concurrently = options.kind === "postgres" ? "CONCURRENTLY " : "";
    const names = fieldIndexNames(collection, field);
    for (const order of ["ascending", "descending"] as const) {
      if (concurrently) await dropInvalidIndex(names[order], run);
      const sql = `CREATE INDEX ${concurrently}IF NOT EXISTS ${quoteIdentifier(names[order])} ON ${qualifiedTable(collection)} (${fieldIndexColumns(field, order)})`;
      await createIdempotently(() => run(sql));
    }
    await run(`DROP INDEX ${concurrently}IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(legacyFieldIndexName(collection, field))}`);
  }

  const upgradesStarted = new Set<string>();

  /**
   * Replaces a field index of the earlier shape, once per field and process, in the background:
   * the query that noticed it does not wait. Not counted in metrics.queries (not the caller's
   * work). A failure is logged and tried again by the next process; until then the old index
   * serves as before.
   */
  function upgradeLegacyFieldIndex(collection: string, field: string): void {
    const key = `${collection}\u0000${field}`;
    if (upgradesStarted.has(key)) return;
    upgradesStarted.add(key);
    const signal = AbortSignal.timeout(LEGACY_INDEX_UPGRADE_TIMEOUT_MS);
    const run: RunStatement = (sql, params = []) => executor.query(sql, params, signal);
    buildFieldIndexes(collection, field, run)
      .then(() => run(`ANALYZE ${qualifiedTable(collection)}`))
      .then(() => log.info("replaced a field index with one that holds the tie-breakers", { collection, field }))
      .catch((error: unknown) => {
        if (!closed) log.error("could not replace a field index", { collection, field, error: mapPgError(error).message });
      })
      .finally(() => indexCatalog.delete(collection));
  }

  /** `queryOptions`: FREQUENT for a text that is the same at every call (the inserts), which the executor may keep prepared. */
  function query(sql: string, params: unknown[], deadline: Deadline, queryOptions?: QueryOptions) {
    metrics.queries += 1;
    return executor.query(sql, params, deadline.signal, queryOptions);
  }

  function exec(sql: string, deadline: Deadline) {
    metrics.queries += 1;
    return executor.exec(sql, deadline.signal);
  }

  function operation<T>(opts: OperationOptions | undefined, work: (deadline: Deadline) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new AppError("unavailable", "the record store is closed"));
    return runWithDeadline(opts, defaultTimeoutMs, async (deadline) => {
      try {
        return await work(deadline);
      } catch (error) {
        throw mapPgError(error);
      }
    });
  }

  /** Runs a DDL batch, retrying when a concurrent session created the same objects first. */
  async function createIdempotently(run: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await run();
        return;
      } catch (error) {
        if (attempt >= CREATION_ATTEMPTS || !isConcurrentCreation(error)) throw error;
      }
    }
  }

  function createTable(collection: string, deadline: Deadline): Promise<void> {
    const table = qualifiedTable(collection);
    const schema = quoteIdentifier(RECORDS_SCHEMA);
    // The schema is created only when missing, so a role without CREATE on the database can use
    // a schema its administrator created.
    const ddl = [
      `DO $$ BEGIN IF to_regnamespace('${RECORDS_SCHEMA}') IS NULL THEN CREATE SCHEMA IF NOT EXISTS ${schema}; END IF; END $$`,
      `CREATE TABLE IF NOT EXISTS ${table} (id text COLLATE "C" NOT NULL, doc jsonb NOT NULL, CONSTRAINT ${quoteIdentifier(uniqueIndexName(collection, "id"))} PRIMARY KEY (id))`,
      `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(orderIndexName(collection))} ON ${table} ((doc->>'createdAt') COLLATE "C", id)`,
    ].join(";\n");
    return createIdempotently(() => exec(ddl, deadline));
  }

  /**
   * Runs a write; when the collection's table (or the outbox's) does not exist yet, creates them and
   * runs it again.
   */
  async function write<T>(collection: string, deadline: Deadline, run: () => Promise<T>, outbox?: OutboxWrite): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
    await createTable(collection, deadline);
    if (outbox) await createTable(outbox.collection, deadline);
    return run();
  }

  /** Runs an update or delete: a missing outbox table is created; a missing collection has nothing to change. */
  async function change<T>(deadline: Deadline, run: () => Promise<T>, empty: T, outbox: OutboxWrite | undefined): Promise<T> {
    if (!outbox) return read(run, empty);
    try {
      return await run();
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
    await createTable(outbox.collection, deadline);
    return read(run, empty);
  }

  /** Runs a read; a collection without a table simply has no records. */
  async function read<T>(run: () => Promise<T>, empty: T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isMissingTable(error)) return empty;
      throw error;
    }
  }

  async function insertAlone({ collection, record, outbox, deadline }: QueuedInsert): Promise<void> {
    const params = new SqlParams();
    const insertSql = `INSERT INTO ${qualifiedTable(collection)} (id, doc) VALUES (${params.add(record.id)}, ${params.add(JSON.stringify(record))}::jsonb)`;
    const sql = outbox ? `WITH written AS (${insertSql} RETURNING doc AS record, NULL::jsonb AS previous) ${outboxInsertSql(outbox, "written", params)}` : insertSql;
    try {
      await write(collection, deadline, () => query(sql, params.values, deadline, FREQUENT), outbox);
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueViolation(collection, error, Object.keys(record));
      throw error;
    }
  }

  /** Inserts of one collection (with outbox entries in one outbox collection, or none), one statement. */
  async function insertTogether(items: readonly QueuedInsert[]): Promise<void> {
    const { collection, outbox } = items[0]!;
    // One JSON array parameter per table: the statement text stays the same whatever the batch size.
    const insertRecords = `INSERT INTO ${qualifiedTable(collection)} (id, doc) SELECT item->>'id', item FROM jsonb_array_elements($1::jsonb) AS item`;
    const params = [JSON.stringify(items.map((item) => item.record))];
    let sql = insertRecords;
    if (outbox) {
      const at = new Date().toISOString();
      params.push(JSON.stringify(items.map((item) => batchOutboxEntry(item.outbox!, item.record, at))));
      sql = `WITH written AS (${insertRecords} RETURNING id, doc) ${batchOutboxInsertSql(outbox.collection)}`;
    }
    const deadline = earliestDeadline(items.map((item) => item.deadline));
    try {
      await write(collection, deadline, () => query(sql, params, deadline, FREQUENT), outbox);
    } finally {
      deadline.dispose();
    }
  }

  const insertBatcher = createWriteBatcher<QueuedInsert>({
    ...RECORD_INSERT_BATCHING,
    runAlone: insertAlone,
    runBatch: insertTogether,
    failsEveryItem: (error) => {
      const code = mapPgError(error).code;
      return code === "unavailable" || code === "timeout";
    },
  });

  async function findDuplicate(collection: string, field: string, deadline: Deadline): Promise<unknown> {
    const json = `(doc->'${field}')`;
    const result = await query(`SELECT ${json} AS value FROM ${qualifiedTable(collection)} WHERE ${scalarGuard(field)} GROUP BY ${json} HAVING count(*) > 1 LIMIT 1`, [], deadline);
    return result.rows[0]?.value;
  }

  async function dropInvalidIndex(name: string, run: RunStatement): Promise<void> {
    const result = await run(
      "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2",
      [RECORDS_SCHEMA, name],
    );
    if (result.rows[0] && result.rows[0].valid === false) {
      await run(`DROP INDEX CONCURRENTLY IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(name)}`);
    }
  }

  /**
   * The schema holding pg_trgm's operator classes: installed in the records schema when the
   * database has it but nobody installed it yet. Undefined when it cannot be had (not shipped with
   * the server, or the role may not install it): search then reads the filtered records, as before.
   */
  async function trigramOperatorsSchema(run: RunStatement): Promise<string | undefined> {
    const installedIn = async () => {
      const result = await run("SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'");
      return result.rows[0] ? String(result.rows[0].schema) : undefined;
    };
    const found = await installedIn();
    if (found !== undefined) return found;
    try {
      await createIdempotently(() => run(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA ${quoteIdentifier(RECORDS_SCHEMA)}`));
    } catch (error) {
      log.warn("text search cannot be indexed: the pg_trgm extension is not available", { error: mapPgError(error).message });
      return undefined;
    }
    return installedIn();
  }

  async function selectOwner(deadline: Deadline): Promise<DatabaseOwner | null> {
    const result = await read(() => executor.query(SELECT_OWNER, [], deadline.signal), { rows: [], rowCount: 0 });
    return toDatabaseOwner(result.rows[0]);
  }

  return {
    kind: options.kind,
    metrics,

    async insert(collection, document, opts) {
      assertCollectionName(collection);
      checkOutbox(opts?.outbox);
      const record = prepareInsert(document, new Date());
      const outbox = opts?.outbox;
      return operation(opts, async (deadline) => {
        await insertBatcher.add(outbox ? `${collection}\u0000${outbox.collection}` : collection, { collection, record, outbox, deadline });
        return record;
      });
    },

    async insertMany(collection, documents, opts) {
      assertCollectionName(collection);
      const records = prepareInsertMany(documents, new Date());
      if (records.length === 0) return [];
      return operation(opts, async (deadline) => {
        try {
          // One JSON array parameter: the statement text stays the same whatever the batch size.
          await write(collection, deadline, () =>
            query(
              `INSERT INTO ${qualifiedTable(collection)} (id, doc) SELECT item->>'id', item FROM jsonb_array_elements($1::jsonb) AS item`,
              [JSON.stringify(records)],
              deadline,
              FREQUENT,
            ),
          );
        } catch (error) {
          if (isUniqueViolation(error)) throw uniqueViolation(collection, error, [...new Set(records.flatMap((record) => Object.keys(record)))]);
          throw error;
        }
        return records;
      });
    },

    async find(collection, findQuery) {
      assertCollectionName(collection);
      const checked = checkFindQuery(findQuery);
      return operation(findQuery, async (deadline) => {
        if (checked.limit === 0) return [];
        const indexes = await indexesFor(collection, checked.where, checked.sort, checked.search);
        const params = new SqlParams();
        let sql = `SELECT doc FROM ${qualifiedTable(collection)} WHERE ${whereSql(checked, params, indexes.conditions, indexes.search)} ORDER BY ${orderBySql(completeSort(checked.sort), indexes.sorts)}`;
        if (checked.limit !== undefined) sql += ` LIMIT ${params.add(checked.limit)}`;
        if (checked.skip > 0) sql += ` OFFSET ${params.add(checked.skip)}`;
        const result = await read(() => query(sql, params.values, deadline), { rows: [], rowCount: 0 });
        return result.rows.map((row) => orderRecordKeys(row.doc as Record<string, unknown>));
      });
    },

    async count(collection, countQuery) {
      assertCollectionName(collection);
      const checked = checkMatchQuery(countQuery);
      const limit = checkCountLimit(countQuery?.limit);
      return operation(countQuery, async (deadline) => {
        if (limit === 0) return 0;
        const indexes = await indexesFor(collection, checked.where, [], checked.search);
        const params = new SqlParams();
        const matches = `SELECT 1 FROM ${qualifiedTable(collection)} WHERE ${whereSql(checked, params, indexes.conditions, indexes.search)}`;
        const sql = limit === undefined ? `SELECT count(*) AS n FROM (${matches}) AS matched` : `SELECT count(*) AS n FROM (${matches} LIMIT ${params.add(limit)}) AS matched`;
        const result = await read(() => query(sql, params.values, deadline), { rows: [{ n: 0 }], rowCount: 1 });
        return Number(result.rows[0]?.n ?? 0);
      });
    },

    async findByIds(collection, ids, opts) {
      assertCollectionName(collection);
      // An id holding NUL or an unpaired surrogate could never have been stored (and jsonb cannot carry it).
      const wanted = checkIds(ids).filter((id) => textProblem(id) === undefined);
      return operation(opts, async (deadline): Promise<StoredRecord[]> => {
        if (wanted.length === 0) return [];
        const sql = `SELECT doc FROM ${qualifiedTable(collection)} WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))`;
        const result = await read(() => query(sql, [JSON.stringify(wanted)], deadline), { rows: [], rowCount: 0 });
        return orderByIds(
          result.rows.map((row) => orderRecordKeys(row.doc as Record<string, unknown>)),
          wanted,
        );
      });
    },

    async updateFirst(collection, where, changes, opts) {
      assertCollectionName(collection);
      checkOutbox(opts?.outbox);
      const conditions = checkConditions(where);
      const patch = prepareChanges(changes, new Date());
      const outbox = opts?.outbox;
      return operation(opts, async (deadline): Promise<UpdateResult> => {
        const indexes = await indexesFor(collection, conditions);
        const params = new SqlParams();
        const table = qualifiedTable(collection);
        // The row is locked while it is read, so `previous` is exactly what the update replaced.
        const target = `SELECT id, doc FROM ${table} WHERE ${whereSql({ where: conditions }, params, indexes.conditions)} ORDER BY ${DEFAULT_ORDER} LIMIT 1 FOR UPDATE`;
        const update =
          `UPDATE ${table} AS updated SET doc = updated.doc || ${params.json(patch)} FROM target WHERE updated.id = target.id ` +
          `RETURNING target.doc AS previous, updated.doc AS record`;
        const sql = outbox
          ? `WITH target AS (${target}), changed AS (${update}), entry AS (${outboxInsertSql(outbox, "changed", params)}) SELECT previous, record FROM changed`
          : `WITH target AS (${target}) ${update}`;
        try {
          const result = await change(deadline, () => query(sql, params.values, deadline), { rows: [], rowCount: 0 }, outbox);
          const row = result.rows[0];
          if (!row) return { matched: false, record: null, previous: null };
          return { matched: true, record: orderRecordKeys(row.record as Record<string, unknown>), previous: orderRecordKeys(row.previous as Record<string, unknown>) };
        } catch (error) {
          if (isUniqueViolation(error)) throw uniqueViolation(collection, error, Object.keys(patch));
          throw error;
        }
      });
    },

    async deleteMany(collection, where, opts) {
      assertCollectionName(collection);
      checkOutbox(opts?.outbox);
      const conditions = checkConditions(where);
      const outbox = opts?.outbox;
      return operation(opts, async (deadline) => {
        const indexes = await indexesFor(collection, conditions);
        const params = new SqlParams();
        const remove = `DELETE FROM ${qualifiedTable(collection)} WHERE ${whereSql({ where: conditions }, params, indexes.conditions)}`;
        if (!outbox) {
          const result = await read(() => query(remove, params.values, deadline), { rows: [], rowCount: 0 });
          return result.rowCount;
        }
        const sql =
          `WITH removed AS (${remove} RETURNING doc AS record, NULL::jsonb AS previous), entry AS (${outboxInsertSql(outbox, "removed", params)}) ` +
          `SELECT count(*) AS n FROM removed`;
        try {
          const result = await change(deadline, () => query(sql, params.values, deadline), { rows: [{ n: 0 }], rowCount: 1 }, outbox);
          return Number(result.rows[0]?.n ?? 0);
        } catch (error) {
          if (isUniqueViolation(error))
            throw new AppError("unique_violation", "an outbox entry covers one deleted record: the filter matched several", { field: "id", cause: error });
          throw error;
        }
      });
    },

    async ensureUniqueIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (field === "id") return; // the primary key
        const index = uniqueIndexName(collection, field);
        const sql = `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdentifier(index)} ON ${qualifiedTable(collection)} ((doc->'${field}')) WHERE ${scalarGuard(field)}`;
        try {
          await write(collection, deadline, () => createIdempotently(() => query(sql, [], deadline)));
        } catch (error) {
          if (!isUniqueViolation(error) || isConcurrentCreation(error)) throw error;
          const duplicate = await findDuplicate(collection, field, deadline);
          const which = duplicate === undefined ? "some value" : `the value ${describeValue(duplicate)}`;
          throw new AppError("unique_violation", `"${field}" cannot be made unique: ${which} is used by more than one record`, { field, cause: error });
        }
      });
    },

    async dropUniqueIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (field === "id") return;
        await query(`DROP INDEX IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(uniqueIndexName(collection, field))}`, [], deadline);
      });
    },

    async ensureFieldIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (isSystemField(field)) return;
        const table = qualifiedTable(collection);
        await write(collection, deadline, () => buildFieldIndexes(collection, field, (sql, params = []) => query(sql, params, deadline)));
        // Statistics on the index's keys are what let the planner tell a filter that matches most
        // records from one that matches a few; gather them now rather than at the next autovacuum.
        await query(`ANALYZE ${table}`, [], deadline);
        indexCatalog.delete(collection);
      });
    },

    async dropFieldIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (isSystemField(field)) return;
        const { ascending, descending } = fieldIndexNames(collection, field);
        const names = [ascending, descending, legacyFieldIndexName(collection, field)].map((name) => `${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(name)}`);
        await query(`DROP INDEX IF EXISTS ${names.join(", ")}`, [], deadline);
        indexCatalog.delete(collection);
      });
    },

    async ensureLookupIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      // Asked for on first use of a platform collection by every caller: built once per store.
      return lookupIndexOnce(`${collection}\u0000${field}`, () =>
        operation(opts, async (deadline) => {
          if (isSystemField(field)) return;
          const run: RunStatement = (sql, params = []) => query(sql, params, deadline);
          const concurrently = options.kind === "postgres";
          if (concurrently) await dropInvalidIndex(lookupIndexName(collection, field), run);
          await write(collection, deadline, () => createIdempotently(() => run(createLookupIndexSql(collection, field, concurrently))));
          await run(`ANALYZE ${qualifiedTable(collection)}`);
        }),
      );
    },

    async ensureSearchIndex(collection, fields, opts) {
      assertCollectionName(collection);
      const searched = checkSearchFields(fields);
      return operation(opts, async (deadline) => {
        const run: RunStatement = (sql, params = []) => query(sql, params, deadline);
        const wanted = searched.length ? searchIndexName(collection, searched) : undefined;
        const concurrently = options.kind === "postgres" ? "CONCURRENTLY " : "";
        const indexes = await run(
          "SELECT c.relname AS name, i.indisvalid AS valid, c.reloptions AS options FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = to_regclass($1)",
          [qualifiedTable(collection)],
        );
        const searchIndexes = indexes.rows.filter((row) => String(row.name).endsWith(SEARCH_INDEX_SUFFIX));
        if (opts?.onlyWhereIndexed && searchIndexes.length === 0) return;
        const current = searchIndexes.find((row) => row.name === wanted);
        // An index built before its pending list was capped gets the cap now: a setting, not a rebuild.
        if (wanted && current?.valid === true && !hasPendingListCap(current.options)) {
          await run(`ALTER INDEX ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(wanted)} SET (${SEARCH_INDEX_PENDING_LIST_OPTION})`);
        }
        // Saving a schema whose search fields did not change costs one catalog read, not a build.
        if (wanted && current?.valid !== true) {
          // The records schema (where pg_trgm goes when nobody installed it) and the table the index is on.
          await createTable(collection, deadline);
          const trigramSchema = await trigramOperatorsSchema(run);
          if (trigramSchema === undefined) return;
          // What a failed or cancelled concurrent build left behind, which IF NOT EXISTS would keep.
          if (current) await run(`DROP INDEX ${concurrently}IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(wanted)}`);
          const sql = `CREATE INDEX ${concurrently}IF NOT EXISTS ${quoteIdentifier(wanted)} ON ${qualifiedTable(collection)} USING gin (${searchedText(searched)} ${quoteIdentifier(trigramSchema)}.gin_trgm_ops) WITH (${SEARCH_INDEX_PENDING_LIST_OPTION})`;
          await createIdempotently(() => run(sql));
          await run(`ANALYZE ${qualifiedTable(collection)}`);
        }
        // The collection's search indexes over other field lists (an earlier shape of its schema) serve no search any more.
        for (const row of searchIndexes) {
          const name = String(row.name);
          if (name !== wanted) await run(`DROP INDEX ${concurrently}IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(name)}`);
        }
        indexCatalog.delete(collection);
      });
    },

    async refreshStatistics(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async (deadline) => {
        await read(() => query(`ANALYZE ${qualifiedTable(collection)}`, [], deadline), undefined);
      });
    },

    async reclaimDeletedSpace(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async (deadline) => {
        // SKIP_LOCKED: another instance's sweep vacuuming the same table has it covered. Empty pages
        // at the table's end go back to the file system as autovacuum's would: a drained outbox
        // shrinks after a burst instead of being read whole by every sweep. PostgreSQL takes the lock
        // for that only while nobody holds the table, and gives it up within 20 ms when a write waits.
        await read(() => query(`VACUUM (SKIP_LOCKED) ${qualifiedTable(collection)}`, [], deadline), undefined);
      });
    },

    async dropCollection(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async (deadline) => {
        indexCatalog.delete(collection);
        await query(`DROP TABLE IF EXISTS ${qualifiedTable(collection)}`, [], deadline);
      });
    },

    async ping(opts) {
      return operation(opts, async (deadline) => {
        await query("SELECT 1", [], deadline);
      });
    },

    // The ownership marker (owner-sql.ts). Its statements go to the executor directly: they are not
    // the caller's work and are left out of metrics.queries.
    async readOwner(opts) {
      return operation(opts, (deadline) => selectOwner(deadline));
    },

    async claimOwnership(claim, opts) {
      checkOwnershipClaim(claim);
      return operation(opts, async (deadline) => {
        const params = [claim.projectId, claim.workspaceId ?? null, new Date().toISOString()];
        const statement = opts?.takeOver ? TAKE_OVER_OWNER : INSERT_OWNER;
        try {
          await executor.query(statement, params, deadline.signal);
        } catch (error) {
          if (!isMissingTable(error)) throw error;
          await createIdempotently(() => executor.exec(CREATE_OWNER_TABLE, deadline.signal));
          await executor.query(statement, params, deadline.signal);
        }
        // Read back in a statement of its own: it sees the marker of a concurrent winner.
        return settleClaim(await selectOwner(deadline), claim);
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      await executor.close();
    },
  };
}
