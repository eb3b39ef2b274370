import path from "node:path";
import { mkdirSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getConfig } from "@/lib/config";
import * as schema from "./schema";

export type PlatformDb = PgDatabase<PgQueryResultHKT, typeof schema>;

interface PlatformDbHandle {
  db: PlatformDb;
  kind: "pglite" | "postgres";
  ready: Promise<void>;
  close(): Promise<void>;
}

// Dev reloads modules; one instance per process (and per PGlite directory) must survive that.
const globalHandles = globalThis as typeof globalThis & { __platformDb?: Map<string, PlatformDbHandle> };
const handles = (globalHandles.__platformDb ??= new Map());

const MIGRATION_LOCK_ID = 7_201_104_117;

export function migrationsFolder(): string {
  return path.join(process.cwd(), "drizzle");
}

export class MigrationError extends Error {
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Platform database migration failed: ${detail}. Start-up stopped; fix the database or the migration and start again.`, { cause });
    this.name = "MigrationError";
  }
}

async function openPglite(dataDir: string): Promise<PlatformDbHandle> {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([import("@electric-sql/pglite"), import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  const db = drizzle({ client, schema }) as unknown as PlatformDb;
  const ready = migrate(db as never, { migrationsFolder: migrationsFolder() }).catch((error: unknown) => {
    throw new MigrationError(error);
  });
  return { db, kind: "pglite", ready, close: () => client.close() };
}

async function openPostgres(url: string): Promise<PlatformDbHandle> {
  const [{ Pool }, { drizzle }, { migrate }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres"), import("drizzle-orm/node-postgres/migrator")]);
  const pool = new Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server must not crash the process.
  pool.on("error", (error) => console.error("[platform-db] idle client error:", error.message));
  const db = drizzle({ client: pool, schema }) as unknown as PlatformDb;
  // Several processes (app instances, test workers) may start at once: one migrates, the rest wait.
  const ready = (async () => {
    const lockClient = await pool.connect();
    try {
      await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      try {
        await migrate(db as never, { migrationsFolder: migrationsFolder() });
      } finally {
        await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
      }
    } finally {
      lockClient.release();
    }
  })().catch((error: unknown) => {
    throw new MigrationError(error);
  });
  return { db, kind: "postgres", ready, close: () => pool.end() };
}

function handleKey(): { key: string; open: () => Promise<PlatformDbHandle> } {
  const config = getConfig();
  if (config.DATABASE_URL) {
    const url = config.DATABASE_URL;
    return { key: `postgres:${url}`, open: () => openPostgres(url) };
  }
  const dataDir = path.resolve(config.DATA_DIR, "platform");
  return { key: `pglite:${dataDir}`, open: () => openPglite(dataDir) };
}

const opening = new Map<string, Promise<PlatformDbHandle>>();

async function getHandle(): Promise<PlatformDbHandle> {
  const { key, open } = handleKey();
  const existing = handles.get(key);
  if (existing) return existing;
  let pending = opening.get(key);
  if (!pending) {
    pending = open().then((handle) => {
      handles.set(key, handle);
      return handle;
    });
    opening.set(key, pending);
    pending.finally(() => opening.delete(key)).catch(() => undefined);
  }
  return pending;
}

/** The platform database, migrated. Migrations run once per process on first use. */
export async function getPlatformDb(): Promise<PlatformDb> {
  const handle = await getHandle();
  await handle.ready;
  return handle.db;
}

export async function getPlatformDbKind(): Promise<"pglite" | "postgres"> {
  return (await getHandle()).kind;
}

/** Applies pending migrations and reports failure as a MigrationError. */
export async function migratePlatformDb(): Promise<void> {
  await getPlatformDb();
}

export async function closePlatformDb(): Promise<void> {
  const all = [...handles.values()];
  handles.clear();
  await Promise.allSettled(all.map((handle) => handle.close()));
}
