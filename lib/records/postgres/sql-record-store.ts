import { AppError } from "@/lib/errors";
import { checkConditions, checkCountLimit, checkFindQuery, checkIds, checkMatchQuery, completeSort } from "../check-query";
import { textProblem } from "../normalize-document";
import { prepareChanges } from "../prepare-changes";
import { prepareInsert, prepareInsertMany } from "../prepare-insert";
import { orderByIds, orderRecordKeys } from "../order-stored-records";
import { assertCollectionName, assertFieldName, isSystemField } from "../record-names";
import type { OperationOptions, OutboxWrite, RecordStore, StoredRecord, UpdateResult } from "../record-store";
import { DEFAULT_OPERATION_TIMEOUT_MS, runWithDeadline, type Deadline } from "../run-with-deadline";
import { orderBySql } from "./build-order-by";
import { NO_FIELD_INDEXES, SqlParams, scalarGuard, whereSql, type HasFieldIndex } from "./build-where";
import { fieldIndexColumns } from "./field-keys";
import { isConcurrentCreation, isMissingTable, isUniqueViolation, mapPgError, violatedConstraint } from "./map-pg-error";
import type { SqlExecutor } from "./sql-executor";
import { createWriteBatcher } from "./write-batcher";
import { RECORDS_SCHEMA, fieldIndexName, orderIndexName, qualifiedTable, quoteIdentifier, tableName, uniqueIndexName } from "./table-names";
import { checkOwnershipClaim, settleClaim, toDatabaseOwner, type DatabaseOwner } from "../database-owner";
import { CREATE_OWNER_TABLE, INSERT_OWNER, SELECT_OWNER, TAKE_OVER_OWNER } from "./owner-sql";

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

/** The outbox entry outboxInsertSql stores, built here for a batch of writes whose records are known. */
function outboxEntry(outbox: OutboxWrite, record: StoredRecord): Record<string, unknown> {
  const now = new Date().toISOString();
  return { id: outbox.id, createdAt: now, updatedAt: now, event: outbox.event, record, previous: null };
}

/** A write waiting in the store's batcher (write-batcher.ts) for the rest of its event-loop turn. */
interface QueuedInsert {
  collection: string;
  record: StoredRecord;
  outbox: OutboxWrite | undefined;
  deadline: Deadline;
}

/**
 * The deadline of a batch statement: the least time any of its writes has left, on a signal of its
 * own, so that one caller giving up does not cancel the others' writes.
 */
function earliestDeadline(deadlines: readonly Deadline[]): Deadline {
  const remaining = Math.min(...deadlines.map((deadline) => deadline.remainingMs()));
  const endsAt = performance.now() + remaining;
  return { signal: AbortSignal.timeout(remaining), remainingMs: () => Math.max(1, Math.ceil(endsAt - performance.now())) };
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
 * boolean values (missing, null, objects and arrays are not constrained). An indexed field has an
 * expression index on its leading sort keys (field-keys.ts); conditions on it are written in those
 * keys once the store has seen the index in the catalog (build-where.ts). Reading a collection
 * that was never written answers empty results without creating anything.
 */
export function createSqlRecordStore(options: SqlRecordStoreOptions): RecordStore {
  const { executor } = options;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  const metrics = { queries: 0 };
  let closed = false;
  const indexCatalog = new Map<string, { loadedAt: number; names: Promise<ReadonlySet<string>> }>();

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

  /** Which of the conditions' fields have a field index; the catalog is read only when one could. */
  async function fieldIndexesFor(collection: string, conditions: readonly { field: string; op: string }[]): Promise<HasFieldIndex> {
    if (!conditions.some((condition) => INDEX_SERVED_OPS.has(condition.op) && !isSystemField(condition.field))) return NO_FIELD_INDEXES;
    const names = await indexNames(collection);
    return (field) => names.has(fieldIndexName(collection, field));
  }

  function query(sql: string, params: unknown[], deadline: Deadline) {
    metrics.queries += 1;
    return executor.query(sql, params, deadline.signal);
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
      await write(collection, deadline, () => query(sql, params.values, deadline), outbox);
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueViolation(collection, error, Object.keys(record));
      throw error;
    }
  }

  /** Inserts of one collection (with outbox entries in one outbox collection, or none), one statement. */
  async function insertTogether(items: readonly QueuedInsert[]): Promise<void> {
    const { collection, outbox } = items[0]!;
    const deadline = earliestDeadline(items.map((item) => item.deadline));
    // One JSON array parameter per table: the statement text stays the same whatever the batch size.
    const insertRecords = `INSERT INTO ${qualifiedTable(collection)} (id, doc) SELECT item->>'id', item FROM jsonb_array_elements($1::jsonb) AS item`;
    const params = [JSON.stringify(items.map((item) => item.record))];
    let sql = insertRecords;
    if (outbox) {
      params.push(JSON.stringify(items.map((item) => outboxEntry(item.outbox!, item.record))));
      sql = `WITH written AS (${insertRecords}) INSERT INTO ${qualifiedTable(outbox.collection)} (id, doc) SELECT item->>'id', item FROM jsonb_array_elements($2::jsonb) AS item`;
    }
    await write(collection, deadline, () => query(sql, params, deadline), outbox);
  }

  const insertBatcher = createWriteBatcher<QueuedInsert>({
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

  async function dropInvalidIndex(name: string, deadline: Deadline): Promise<void> {
    const result = await query(
      "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2",
      [RECORDS_SCHEMA, name],
      deadline,
    );
    if (result.rows[0] && result.rows[0].valid === false) {
      await query(`DROP INDEX CONCURRENTLY IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(name)}`, [], deadline);
    }
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
            query(`INSERT INTO ${qualifiedTable(collection)} (id, doc) SELECT item->>'id', item FROM jsonb_array_elements($1::jsonb) AS item`, [JSON.stringify(records)], deadline),
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
        const hasFieldIndex = await fieldIndexesFor(collection, checked.where);
        const params = new SqlParams();
        let sql = `SELECT doc FROM ${qualifiedTable(collection)} WHERE ${whereSql(checked, params, hasFieldIndex)} ORDER BY ${orderBySql(completeSort(checked.sort))}`;
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
        const hasFieldIndex = await fieldIndexesFor(collection, checked.where);
        const params = new SqlParams();
        const matches = `SELECT 1 FROM ${qualifiedTable(collection)} WHERE ${whereSql(checked, params, hasFieldIndex)}`;
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
        const hasFieldIndex = await fieldIndexesFor(collection, conditions);
        const params = new SqlParams();
        const table = qualifiedTable(collection);
        // The row is locked while it is read, so `previous` is exactly what the update replaced.
        const target = `SELECT id, doc FROM ${table} WHERE ${whereSql({ where: conditions }, params, hasFieldIndex)} ORDER BY ${DEFAULT_ORDER} LIMIT 1 FOR UPDATE`;
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
        const hasFieldIndex = await fieldIndexesFor(collection, conditions);
        const params = new SqlParams();
        const remove = `DELETE FROM ${qualifiedTable(collection)} WHERE ${whereSql({ where: conditions }, params, hasFieldIndex)}`;
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
        const name = fieldIndexName(collection, field);
        // On a server, writes to the collection go on while the index is built (CONCURRENTLY). A build
        // that failed or was cancelled leaves an invalid index behind, which IF NOT EXISTS would keep:
        // it is dropped first. PGlite serves one connection: there is nobody to let through.
        const concurrently = options.kind === "postgres";
        if (concurrently) await dropInvalidIndex(name, deadline);
        const sql = `CREATE INDEX ${concurrently ? "CONCURRENTLY " : ""}IF NOT EXISTS ${quoteIdentifier(name)} ON ${table} (${fieldIndexColumns(field)})`;
        await write(collection, deadline, () => createIdempotently(() => query(sql, [], deadline)));
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
        await query(`DROP INDEX IF EXISTS ${quoteIdentifier(RECORDS_SCHEMA)}.${quoteIdentifier(fieldIndexName(collection, field))}`, [], deadline);
        indexCatalog.delete(collection);
      });
    },

    async refreshStatistics(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async (deadline) => {
        await read(() => query(`ANALYZE ${qualifiedTable(collection)}`, [], deadline), undefined);
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
