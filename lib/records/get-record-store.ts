import { createHash } from "node:crypto";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";
import { createMongoRecordStore } from "./mongodb/mongodb-record-store";
import { createPgliteRecordStore } from "./postgres/create-pglite-record-store";
import { createPostgresRecordStore } from "./postgres/create-postgres-record-store";
import { probeMongo, probePostgres, type RecordStoreConnectionTest } from "./probe-connection";
import { checkRecordStoreTarget, type RecordStoreTarget } from "./record-store-target";
import type { RecordStore } from "./record-store";

export type { RecordStoreTarget } from "./record-store-target";
export type { RecordStoreConnectionTest } from "./probe-connection";
export type { ConnectionFailure } from "./classify-connection-error";

/** A project's store is closed after this long without an operation. */
export const DEFAULT_IDLE_MS = 5 * 60_000;
const CONNECTION_TEST_TIMEOUT_MS = 5_000;

export interface RecordStorePoolOptions {
  /** Idle time before the store is closed (applies when the store is opened). Tests use a few ms. */
  idleMs?: number;
}

interface PoolEntry {
  store: RecordStore;
  idleMs: number;
  inFlight: number;
  lastUsed: number;
  timer?: NodeJS.Timeout;
}

interface PoolState {
  entries: Map<string, PoolEntry>;
  /** Stores being closed, by key: a PGlite directory opens again only after its close finished. */
  closing: Map<string, Promise<void>>;
}

// Next dev reloads modules; pools and PGlite instances must survive that (one per directory).
const globalPool = globalThis as typeof globalThis & { __flowpointRecordStores?: PoolState };
const pool: PoolState = (globalPool.__flowpointRecordStores ??= { entries: new Map(), closing: new Map() });

function hashUrl(url: string): string {
  return createHash("sha256").update(url).digest("hex").slice(0, 32);
}

function localDirectory(projectId: string): string {
  return path.resolve(getConfig().DATA_DIR, "projects", projectId);
}

/** The cache key: per project and URL (a changed URL opens a new pool); per directory for local. */
function keyOf(target: RecordStoreTarget): string {
  if (target.kind === "local") return `local:${localDirectory(target.projectId)}`;
  return `${target.kind}:${target.projectId}:${hashUrl(target.url ?? "")}`;
}

function openStore(target: RecordStoreTarget, key: string): RecordStore {
  switch (target.kind) {
    case "local":
      return createPgliteRecordStore({ dataDir: localDirectory(target.projectId), openAfter: pool.closing.get(key) });
    case "postgres":
      return createPostgresRecordStore({ url: target.url as string });
    case "mongodb":
      return createMongoRecordStore({ url: target.url as string });
  }
}

function closeEntry(key: string, entry: PoolEntry): Promise<void> {
  clearTimeout(entry.timer);
  if (pool.entries.get(key) === entry) pool.entries.delete(key);
  const closing = entry.store
    .close()
    .catch((error: unknown) => log.warn("record store: close failed", { code: (error as { code?: unknown }).code ?? "unknown" }))
    .finally(() => {
      if (pool.closing.get(key) === closing) pool.closing.delete(key);
    });
  pool.closing.set(key, closing);
  return closing;
}

function scheduleEviction(key: string, entry: PoolEntry): void {
  if (entry.timer) return;
  const check = () => {
    entry.timer = undefined;
    if (pool.entries.get(key) !== entry) return;
    const idleFor = Date.now() - entry.lastUsed;
    if (entry.inFlight > 0 || idleFor < entry.idleMs) {
      entry.timer = setTimeout(check, Math.max(1, entry.idleMs - idleFor));
      entry.timer.unref();
      return;
    }
    void closeEntry(key, entry);
  };
  entry.timer = setTimeout(check, entry.idleMs);
  entry.timer.unref();
}

function acquire(target: RecordStoreTarget, key: string, idleMs: number): PoolEntry {
  let entry = pool.entries.get(key);
  if (!entry) {
    entry = { store: openStore(target, key), idleMs, inFlight: 0, lastUsed: Date.now() };
    pool.entries.set(key, entry);
  }
  return entry;
}

/**
 * The customer database of a project. Stores are cached per project (and URL), shared by every
 * caller, closed after `idleMs` without operations (default 5 minutes) and reopened on the next
 * call, so the handle returned here stays usable for as long as the caller keeps it. Opening is
 * lazy: connection problems surface on the first operation as AppError("unavailable").
 */
export function getRecordStore(target: RecordStoreTarget, options: RecordStorePoolOptions = {}): RecordStore {
  checkRecordStoreTarget(target);
  const key = keyOf(target);
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const frozenTarget = { ...target };
  let lastMetrics = pool.entries.get(key)?.store.metrics ?? { queries: 0 };

  async function withStore<T>(work: (store: RecordStore) => Promise<T>): Promise<T> {
    const entry = acquire(frozenTarget, key, idleMs);
    lastMetrics = entry.store.metrics;
    entry.inFlight += 1;
    try {
      return await work(entry.store);
    } finally {
      entry.inFlight -= 1;
      entry.lastUsed = Date.now();
      scheduleEviction(key, entry);
    }
  }

  return {
    kind: target.kind === "local" ? "pglite" : target.kind,
    get metrics() {
      return pool.entries.get(key)?.store.metrics ?? lastMetrics;
    },
    insert: (collection, document, opts) => withStore((store) => store.insert(collection, document, opts)),
    insertMany: (collection, documents, opts) => withStore((store) => store.insertMany(collection, documents, opts)),
    find: (collection, query) => withStore((store) => store.find(collection, query)),
    count: (collection, query) => withStore((store) => store.count(collection, query)),
    findByIds: (collection, ids, opts) => withStore((store) => store.findByIds(collection, ids, opts)),
    updateFirst: (collection, where, changes, opts) => withStore((store) => store.updateFirst(collection, where, changes, opts)),
    deleteMany: (collection, where, opts) => withStore((store) => store.deleteMany(collection, where, opts)),
    ensureUniqueIndex: (collection, field, opts) => withStore((store) => store.ensureUniqueIndex(collection, field, opts)),
    dropUniqueIndex: (collection, field, opts) => withStore((store) => store.dropUniqueIndex(collection, field, opts)),
    dropCollection: (collection, opts) => withStore((store) => store.dropCollection(collection, opts)),
    ping: (opts) => withStore((store) => store.ping(opts)),
    /** Closes the shared store of this project now; the next operation opens it again. */
    async close() {
      const entry = pool.entries.get(key);
      if (entry) await closeEntry(key, entry);
      else await pool.closing.get(key);
    },
  };
}

/** Closes every cached store (shutdown, tests) and waits for the closes to finish. */
export async function closeAllRecordStores(): Promise<void> {
  const closes = [...pool.entries].map(([key, entry]) => closeEntry(key, entry));
  await Promise.all([...closes, ...pool.closing.values()]);
}

/** How many stores are open now (for tests and health reports). */
export function openRecordStoreCount(): number {
  return pool.entries.size;
}

/**
 * "Test connection": connects once with a short timeout (outside the pool) and answers whether it
 * worked and, if not, why: cannot resolve host, connection refused, authentication failed, timed
 * out, database does not exist, or other. The message never contains the password. For `local`
 * it opens (or reuses) the project's embedded database.
 */
export async function testRecordStoreConnection(target: RecordStoreTarget): Promise<RecordStoreConnectionTest> {
  checkRecordStoreTarget(target);
  switch (target.kind) {
    case "postgres":
      return probePostgres(target.url as string, CONNECTION_TEST_TIMEOUT_MS);
    case "mongodb":
      return probeMongo(target.url as string, CONNECTION_TEST_TIMEOUT_MS);
    case "local":
      try {
        await getRecordStore(target).ping({ timeoutMs: 30_000 });
        return { ok: true, message: "The built-in database is ready." };
      } catch {
        return { ok: false, reason: "other", message: "The built-in database could not be opened." };
      }
  }
}
