import { createHash } from "node:crypto";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { createMongoRecordStore } from "./mongodb/mongodb-record-store";
import { createPgliteRecordStore } from "./postgres/create-pglite-record-store";
import { createPostgresRecordStore } from "./postgres/create-postgres-record-store";
import { probeMongo, probePostgres, type RecordStoreConnectionTest } from "./probe-connection";
import { checkRecordStoreTarget, type RecordStoreTarget } from "./record-store-target";
import type { OperationOptions, RecordStore } from "./record-store";
import { isDatabaseTakenError, type DatabaseOwner } from "./database-owner";
import { DEFAULT_OPERATION_TIMEOUT_MS, runWithDeadline } from "./run-with-deadline";

export type { RecordStoreTarget } from "./record-store-target";
export type { RecordStoreConnectionTest } from "./probe-connection";
export type { ConnectionFailure } from "./classify-connection-error";

/** A project's store is closed after this long without an operation. */
export const DEFAULT_IDLE_MS = 5 * 60_000;
const CONNECTION_TEST_TIMEOUT_MS = 5_000;
/** How often an open store confirms, in the background, that the database still names its project. */
export const DEFAULT_OWNERSHIP_RECHECK_MS = 60_000;
/** How long a refusal (the database names another project) is answered from memory. */
const REFUSAL_RECHECK_MS = 10_000;
/** Upper bound for one ownership claim made by the pool. */
const CLAIM_TIMEOUT_MS = 15_000;

export interface RecordStorePoolOptions {
  /** Idle time before the store is closed (applies when the store is opened). Tests use a few ms. */
  idleMs?: number;
  /** Background re-check of the ownership marker (applies when the store is opened; not for local stores). */
  ownershipRecheckMs?: number;
}

/**
 * The pool's side of "one database, one project" (database-owner.ts): before the first operation
 * of a freshly opened store, the store is claimed for the target's project — once, not per call.
 * A database that names another project answers AppError("conflict") to every operation instead
 * of serving (re-read every 10 s). Open stores re-check in the background, so a takeOver made on
 * another instance stops the previous project there too.
 */
interface Ownership {
  pending?: Promise<void>;
  verifiedAt?: number;
  refused?: { error: AppError; at: number };
}

interface PoolEntry {
  store: RecordStore;
  idleMs: number;
  inFlight: number;
  lastUsed: number;
  timer?: NodeJS.Timeout;
  target: RecordStoreTarget;
  ownership: Ownership;
  ownershipRecheckMs: number;
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

function acquire(target: RecordStoreTarget, key: string, options: { idleMs: number; ownershipRecheckMs: number }): PoolEntry {
  let entry = pool.entries.get(key);
  if (!entry) {
    entry = {
      store: openStore(target, key),
      idleMs: options.idleMs,
      inFlight: 0,
      lastUsed: Date.now(),
      target,
      ownership: {},
      ownershipRecheckMs: target.kind === "local" ? Number.POSITIVE_INFINITY : options.ownershipRecheckMs,
    };
    pool.entries.set(key, entry);
  }
  return entry;
}

/** What a project whose database names another project answers (it never names that project). */
export function projectDatabaseTakenError(cause?: unknown): AppError {
  return new AppError(
    "conflict",
    "this project's database is attached to another Flowpoint project, so this project does not use it: give the project a database of its own, or take this one over in the project's database settings",
    { cause },
  );
}

/** Claims the entry's database for its project; records the outcome on `ownership`. */
function claimFor(entry: PoolEntry, ownership: Ownership, background: boolean): Promise<void> {
  const { projectId, workspaceId } = entry.target;
  const pending = entry.store
    .claimOwnership({ projectId, workspaceId }, { timeoutMs: CLAIM_TIMEOUT_MS })
    .then(
      () => {
        ownership.verifiedAt = Date.now();
        ownership.refused = undefined;
      },
      (error: unknown) => {
        if (isDatabaseTakenError(error)) {
          ownership.verifiedAt = undefined;
          ownership.refused = { error: projectDatabaseTakenError(error), at: Date.now() };
          log.warn("record store: the database is attached to another project; refusing to use it", { projectId });
          throw ownership.refused.error;
        }
        // A failed background re-check (database briefly unreachable) keeps the earlier verdict.
        if (background && ownership.verifiedAt !== undefined) ownership.verifiedAt = Date.now();
        throw error;
      },
    )
    .finally(() => {
      if (ownership.pending === pending) ownership.pending = undefined;
    });
  ownership.pending = pending;
  return pending;
}

/** Null when the store may be used now; else the claim (or refusal) to wait for. */
function ownershipGate(entry: PoolEntry): Promise<void> | null {
  const ownership = entry.ownership;
  const now = Date.now();
  if (ownership.verifiedAt !== undefined) {
    if (now - ownership.verifiedAt >= entry.ownershipRecheckMs && !ownership.pending) {
      claimFor(entry, ownership, true).catch(() => undefined);
    }
    return null;
  }
  if (ownership.refused && now - ownership.refused.at < REFUSAL_RECHECK_MS) return Promise.reject(ownership.refused.error);
  return ownership.pending ?? claimFor(entry, ownership, false);
}

/**
 * After a takeOver, the previous owner's store in this process must stop. One with the same URL
 * checks again before its next operation; any other URL may name the same database too (another
 * user, other options), so every other store of that kind re-checks in the background on its next
 * operation. Other instances notice within ownershipRecheckMs.
 */
function recheckOthers(key: string, target: RecordStoreTarget): void {
  if (target.kind === "local") return;
  const suffix = `:${hashUrl(target.url ?? "")}`;
  for (const [otherKey, other] of pool.entries) {
    if (otherKey === key || !otherKey.startsWith(`${target.kind}:`)) continue;
    if (otherKey.endsWith(suffix)) other.ownership = {};
    else if (other.ownership.verifiedAt !== undefined) other.ownership.verifiedAt = 0;
  }
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
  const poolOptions = { idleMs: options.idleMs ?? DEFAULT_IDLE_MS, ownershipRecheckMs: options.ownershipRecheckMs ?? DEFAULT_OWNERSHIP_RECHECK_MS };
  const frozenTarget = { ...target };
  let lastMetrics = pool.entries.get(key)?.store.metrics ?? { queries: 0 };

  /** Runs one operation on the shared store; `gated` operations wait for the ownership claim first. */
  async function withStore<T>(opts: OperationOptions | undefined, work: (store: RecordStore, entry: PoolEntry) => Promise<T>, gated = true): Promise<T> {
    const entry = acquire(frozenTarget, key, poolOptions);
    lastMetrics = entry.store.metrics;
    entry.inFlight += 1;
    try {
      const gate = gated ? ownershipGate(entry) : null;
      // The first operation waits under its own signal and timeout; later ones pass straight through.
      if (gate) await runWithDeadline(opts, DEFAULT_OPERATION_TIMEOUT_MS, () => gate);
      return await work(entry.store, entry);
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
    insert: (collection, document, opts) => withStore(opts, (store) => store.insert(collection, document, opts)),
    insertMany: (collection, documents, opts) => withStore(opts, (store) => store.insertMany(collection, documents, opts)),
    find: (collection, query) => withStore(query, (store) => store.find(collection, query)),
    count: (collection, query) => withStore(query, (store) => store.count(collection, query)),
    findByIds: (collection, ids, opts) => withStore(opts, (store) => store.findByIds(collection, ids, opts)),
    updateFirst: (collection, where, changes, opts) => withStore(opts, (store) => store.updateFirst(collection, where, changes, opts)),
    deleteMany: (collection, where, opts) => withStore(opts, (store) => store.deleteMany(collection, where, opts)),
    ensureUniqueIndex: (collection, field, opts) => withStore(opts, (store) => store.ensureUniqueIndex(collection, field, opts)),
    dropUniqueIndex: (collection, field, opts) => withStore(opts, (store) => store.dropUniqueIndex(collection, field, opts)),
    ensureFieldIndex: (collection, field, opts) => withStore(opts, (store) => store.ensureFieldIndex(collection, field, opts)),
    ensureLookupIndex: (collection, field, opts) => withStore(opts, (store) => store.ensureLookupIndex(collection, field, opts)),
    dropFieldIndex: (collection, field, opts) => withStore(opts, (store) => store.dropFieldIndex(collection, field, opts)),
    ensureSearchIndex: (collection, fields, opts) => withStore(opts, (store) => store.ensureSearchIndex(collection, fields, opts)),
    refreshStatistics: (collection, opts) => withStore(opts, (store) => store.refreshStatistics(collection, opts)),
    reclaimDeletedSpace: (collection, opts) => withStore(opts, (store) => store.reclaimDeletedSpace(collection, opts)),
    dropCollection: (collection, opts) => withStore(opts, (store) => store.dropCollection(collection, opts)),
    ping: (opts) => withStore(opts, (store) => store.ping(opts)),
    readOwner: (opts) => withStore(opts, (store) => store.readOwner(opts), false),
    /** Claims explicitly (attaching a project): the outcome also settles the pool's own check. */
    claimOwnership: (claim, opts) =>
      withStore(
        opts,
        async (store, entry) => {
          const ownership = entry.ownership;
          try {
            const owner = await store.claimOwnership(claim, opts);
            if (claim.projectId === frozenTarget.projectId) {
              ownership.verifiedAt = Date.now();
              ownership.refused = undefined;
            }
            if (opts?.takeOver) recheckOthers(key, frozenTarget);
            return owner;
          } catch (error) {
            if (isDatabaseTakenError(error) && claim.projectId === frozenTarget.projectId) {
              ownership.verifiedAt = undefined;
              ownership.refused = { error: projectDatabaseTakenError(error), at: Date.now() };
            }
            throw error;
          }
        },
        false,
      ),
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
 * The owner marker of a database the caller is about to attach, read once outside the pool (like
 * the connection test): null when no project claimed it.
 */
export async function readRecordStoreOwner(target: RecordStoreTarget, options: OperationOptions = {}): Promise<DatabaseOwner | null> {
  checkRecordStoreTarget(target);
  if (target.kind === "local") return getRecordStore(target).readOwner(options);
  const store =
    target.kind === "postgres"
      ? createPostgresRecordStore({ url: target.url as string, maxConnections: 1 })
      : createMongoRecordStore({ url: target.url as string, maxPoolSize: 1 });
  try {
    return await store.readOwner({ timeoutMs: CONNECTION_TEST_TIMEOUT_MS, ...options });
  } finally {
    await store.close().catch(() => undefined);
  }
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
