import { MongoClient, type Collection, type Document, type MongoClientOptions } from "mongodb";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { ConnectGuardOptions } from "@/lib/outbound/guarded-socket";
import { checkConditions, checkCountLimit, checkFindQuery, checkIds, checkMatchQuery, checkSearchFields, completeSort } from "../check-query";
import { prepareChanges } from "../prepare-changes";
import { prepareInsert, prepareInsertMany } from "../prepare-insert";
import { orderByIds, orderRecordKeys } from "../order-stored-records";
import { assertCollectionName, assertFieldName, isSystemField } from "../record-names";
import type { OperationOptions, OutboxWrite, RecordStore, StoredRecord, UpdateResult } from "../record-store";
import { DEFAULT_OPERATION_TIMEOUT_MS, runWithDeadline, type Deadline } from "../run-with-deadline";
import { buildFilter } from "./build-filter";
import { buildSort } from "./build-sort";
import { buildUpdate } from "./build-update";
import { ORDER_INDEX, fieldIndexName, fieldIndexSpec, lookupIndexSpec, uniqueIndexName, uniqueIndexSpec, type IndexSpec } from "./index-spec";
import { databaseNameFromUrl, fromMongoDocument, toMongoDocument } from "./map-document";
import { isAlreadyGone, isConcurrentIndexBuild, mapMongoError, type MongoErrorContext } from "./map-mongo-error";
import { OWNER_COLLECTION } from "../database-owner";
import { guardedMongoOptions } from "./mongo-connect-guard";
import { claimMongoOwnership, isOwnerMarkerCommand, readMongoOwner, type OwnerMarkerCollection } from "./owner-marker";
import { oncePerKey } from "../once-per-key";

export interface MongoRecordStoreOptions {
  /** A mongodb:// or mongodb+srv:// URL (decrypted; never logged). Its path names the database (default "flowpoint"). */
  url: string;
  maxPoolSize?: number;
  serverSelectionTimeoutMs?: number;
  /** Applies to operations called without timeoutMs (default 30 s). */
  defaultTimeoutMs?: number;
  /** Seams of the outbound guard every connection passes (tests inject a resolver); the policy itself always applies. */
  guard?: ConnectGuardOptions;
}

const DEFAULT_DATABASE = "flowpoint";

function openClient(options: MongoRecordStoreOptions): MongoClient {
  // The URL comes from a project owner: every host the driver connects to (seeds, SRV targets, members
  // it discovers) is resolved through the outbound guard, and only checked addresses are dialled.
  let guarded: Pick<MongoClientOptions, "lookup">;
  try {
    guarded = guardedMongoOptions(options.url, options.guard);
  } catch (error) {
    const detail = isAppError(error) ? `: ${error.message}` : "";
    throw new AppError("unavailable", `the database is unavailable${detail}`, { cause: error });
  }
  try {
    return new MongoClient(options.url, {
      ...guarded,
      maxPoolSize: options.maxPoolSize ?? 5,
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5_000,
      connectTimeoutMS: 5_000,
      appName: "flowpoint-records",
      monitorCommands: true,
    });
  } catch (error) {
    throw new AppError("validation_failed", "the MongoDB connection string is not valid", {
      issues: [{ path: "url", message: "is not a valid MongoDB connection string" }],
      cause: error,
    });
  }
}

/**
 * The record store on MongoDB 5.0+: a thin layer of standard driver calls. Everything of ours —
 * filters, sorts, the update document, index specs, error mapping — is in the pure modules beside
 * this file. Each call carries maxTimeMS (the time left) and, where the driver takes one, the
 * abort signal. metrics.queries counts the driver's commands (command monitoring).
 */
export function createMongoRecordStore(options: MongoRecordStoreOptions): RecordStore {
  const client = openClient(options);
  const db = client.db(databaseNameFromUrl(options.url) ?? DEFAULT_DATABASE);
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  const metrics = { queries: 0 };
  client.on("commandStarted", (event) => {
    // The ownership marker's commands are not the caller's work (see RecordStore.claimOwnership).
    if (isOwnerMarkerCommand(event)) return;
    metrics.queries += 1;
  });
  const orderIndexed = new Set<string>();
  const lookupIndexOnce = oncePerKey();
  let closed = false;

  function collectionOf(name: string): Collection<Document> {
    return db.collection(name);
  }

  /** createIndex, retried when a concurrent build of the same index got there first. */
  async function createIndex(collection: string, spec: IndexSpec, deadline: Deadline): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await collectionOf(collection).createIndex(spec.key, { ...spec.options, maxTimeMS: deadline.remainingMs() });
        return;
      } catch (error) {
        if (attempt >= 3 || !isConcurrentIndexBuild(error)) throw error;
      }
    }
  }

  /** The `_flowpoint` collection, with string `_id`s (owner-marker.ts). */
  function ownerMarker(): OwnerMarkerCollection {
    return db.collection(OWNER_COLLECTION) as unknown as OwnerMarkerCollection;
  }

  function operation<T>(opts: OperationOptions | undefined, work: (deadline: Deadline) => Promise<T>, context?: MongoErrorContext): Promise<T> {
    if (closed) return Promise.reject(new AppError("unavailable", "the record store is closed"));
    return runWithDeadline(opts, defaultTimeoutMs, async (deadline) => {
      try {
        return await work(deadline);
      } catch (error) {
        throw mapMongoError(error, context);
      }
    });
  }

  /** The default-order index helps large collections; a store that may not create it still works. */
  async function ensureOrderIndex(collection: string, deadline: Deadline): Promise<void> {
    if (orderIndexed.has(collection)) return;
    orderIndexed.add(collection); // tried once per collection and store, not before every insert
    try {
      await collectionOf(collection).createIndex(ORDER_INDEX.key, { ...ORDER_INDEX.options, maxTimeMS: deadline.remainingMs() });
    } catch (error) {
      const mapped = mapMongoError(error);
      if (mapped.code === "timeout" || mapped.code === "unavailable") {
        orderIndexed.delete(collection);
        throw mapped;
      }
      log.warn("record store: could not create the order index", { collection, code: (error as { code?: unknown }).code ?? "unknown" });
    }
  }

  /**
   * The outbox entry of a write, right after it: a standalone MongoDB has no multi-document
   * transactions (MongoDB 5.0+ replica sets do, but the store must work on both), so a process
   * that dies between the two loses the entry (record-store.ts, OutboxWrite).
   */
  async function writeOutboxEntry(outbox: OutboxWrite | undefined, record: StoredRecord, previous: StoredRecord | null, deadline: Deadline): Promise<void> {
    if (!outbox) return;
    const entry = prepareInsert({ id: outbox.id, event: outbox.event, record, previous }, new Date());
    await collectionOf(outbox.collection).insertOne(toMongoDocument(entry), { maxTimeMS: deadline.remainingMs() });
  }

  return {
    kind: "mongodb",
    metrics,

    async insert(collection, document, opts) {
      assertCollectionName(collection);
      const record = prepareInsert(document, new Date());
      return operation(opts, async (deadline) => {
        await ensureOrderIndex(collection, deadline);
        await collectionOf(collection).insertOne(toMongoDocument(record), { maxTimeMS: deadline.remainingMs() });
        await writeOutboxEntry(opts?.outbox, record, null, deadline);
        return record;
      });
    },

    async insertMany(collection, documents, opts) {
      assertCollectionName(collection);
      const records = prepareInsertMany(documents, new Date());
      if (records.length === 0) return [];
      return operation(opts, async (deadline) => {
        await ensureOrderIndex(collection, deadline);
        await collectionOf(collection).insertMany(records.map(toMongoDocument), { ordered: true, maxTimeMS: deadline.remainingMs() });
        return records;
      });
    },

    async find(collection, query) {
      assertCollectionName(collection);
      const checked = checkFindQuery(query);
      return operation(query, async (deadline) => {
        if (checked.limit === 0) return [];
        const documents = await collectionOf(collection)
          .find(buildFilter(checked), {
            sort: buildSort(completeSort(checked.sort)),
            skip: checked.skip,
            limit: checked.limit,
            maxTimeMS: deadline.remainingMs(),
            signal: deadline.signal,
          })
          .toArray();
        return documents.map(fromMongoDocument);
      });
    },

    async count(collection, query) {
      assertCollectionName(collection);
      const checked = checkMatchQuery(query);
      const limit = checkCountLimit(query?.limit);
      return operation(query, async (deadline) => {
        if (limit === 0) return 0;
        return collectionOf(collection).countDocuments(buildFilter(checked), {
          maxTimeMS: deadline.remainingMs(),
          signal: deadline.signal,
          ...(limit === undefined ? {} : { limit }),
        });
      });
    },

    async findByIds(collection, ids, opts) {
      assertCollectionName(collection);
      const wanted = checkIds(ids);
      return operation(opts, async (deadline): Promise<StoredRecord[]> => {
        if (wanted.length === 0) return [];
        const documents = await collectionOf(collection)
          .find({ _id: { $in: wanted } } as Document, { maxTimeMS: deadline.remainingMs(), signal: deadline.signal })
          .toArray();
        return orderByIds(documents.map(fromMongoDocument), wanted);
      });
    },

    async updateFirst(collection, where, changes, opts) {
      assertCollectionName(collection);
      const conditions = checkConditions(where);
      const patch = prepareChanges(changes, new Date());
      return operation(opts, async (deadline): Promise<UpdateResult> => {
        const before = await collectionOf(collection).findOneAndUpdate(buildFilter({ where: conditions }), buildUpdate(patch), {
          sort: buildSort(completeSort([])),
          returnDocument: "before",
          maxTimeMS: deadline.remainingMs(),
        });
        if (!before) return { matched: false, record: null, previous: null };
        const previous = fromMongoDocument(before);
        const record = orderRecordKeys({ ...previous, ...patch });
        await writeOutboxEntry(opts?.outbox, record, previous, deadline);
        return { matched: true, previous, record };
      });
    },

    async deleteMany(collection, where, opts) {
      assertCollectionName(collection);
      const conditions = checkConditions(where);
      return operation(opts, async (deadline) => {
        const outbox = opts?.outbox;
        if (!outbox) {
          const result = await collectionOf(collection).deleteMany(buildFilter({ where: conditions }), { maxTimeMS: deadline.remainingMs() });
          return result.deletedCount;
        }
        // One record at most with an outbox entry: the entry holds the record as it was.
        const removed = await collectionOf(collection).findOneAndDelete(buildFilter({ where: conditions }), {
          sort: buildSort(completeSort([])),
          maxTimeMS: deadline.remainingMs(),
        });
        if (!removed) return 0;
        await writeOutboxEntry(outbox, fromMongoDocument(removed), null, deadline);
        return 1;
      });
    },

    async ensureUniqueIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(
        opts,
        async (deadline) => {
          if (field === "id") return; // _id is unique already
          await createIndex(collection, uniqueIndexSpec(field), deadline);
        },
        { creatingIndexOn: field },
      );
    },

    async dropUniqueIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (field === "id") return;
        try {
          await collectionOf(collection).dropIndex(uniqueIndexName(field), { maxTimeMS: deadline.remainingMs() });
        } catch (error) {
          if (!isAlreadyGone(error)) throw error;
        }
      });
    },

    async ensureFieldIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (isSystemField(field)) return;
        await createIndex(collection, fieldIndexSpec(field), deadline);
      });
    },

    async ensureLookupIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      // Asked for on first use of a platform collection by every caller: built once per store.
      return lookupIndexOnce(`${collection}\u0000${field}`, () =>
        operation(opts, async (deadline) => {
          if (isSystemField(field)) return;
          await createIndex(collection, lookupIndexSpec(field), deadline);
        }),
      );
    },

    async dropFieldIndex(collection, field, opts) {
      assertCollectionName(collection);
      assertFieldName(field, "field");
      return operation(opts, async (deadline) => {
        if (isSystemField(field)) return;
        try {
          await collectionOf(collection).dropIndex(fieldIndexName(field), { maxTimeMS: deadline.remainingMs() });
        } catch (error) {
          if (!isAlreadyGone(error)) throw error;
        }
      });
    },

    async ensureSearchIndex(collection, fields, opts) {
      assertCollectionName(collection);
      checkSearchFields(fields);
      // A search is a case-insensitive substring match ($regex), which no MongoDB index serves.
      return operation(opts, async () => undefined);
    },

    async refreshStatistics(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async () => undefined);
    },

    async reclaimDeletedSpace(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async () => undefined);
    },

    async dropCollection(collection, opts) {
      assertCollectionName(collection);
      return operation(opts, async (deadline) => {
        orderIndexed.delete(collection);
        try {
          await collectionOf(collection).drop({ maxTimeMS: deadline.remainingMs() });
        } catch (error) {
          if (!isAlreadyGone(error)) throw error;
        }
      });
    },

    async ping(opts) {
      return operation(opts, async (deadline) => {
        await db.command({ ping: 1 }, { signal: deadline.signal });
      });
    },

    async readOwner(opts) {
      return operation(opts, (deadline) => readMongoOwner(ownerMarker(), deadline.remainingMs));
    },

    async claimOwnership(claim, opts) {
      return operation(opts, (deadline) => claimMongoOwnership(ownerMarker(), claim, { takeOver: opts?.takeOver, remainingMs: deadline.remainingMs }));
    },

    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
