import pg from "pg";
import { Redis } from "ioredis";

/** Fresh databases per run on the local PostgreSQL (`--db-prefix`, default bench_…), dropped at the end; Redis keys cleaned by pattern. */

export const POSTGRES_SERVER = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

/** `host:port` of the PostgreSQL server, as the app's egress allowance (OUTBOUND_ALLOWED_HOSTS) names it. */
export function postgresServerHost(): string {
  const url = new URL(POSTGRES_SERVER);
  return `${url.hostname}:${url.port || 5432}`;
}

export function databaseUrl(name: string): string {
  return `${POSTGRES_SERVER}/${name}`;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl("postgres"), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function assertDatabaseName(name: string): void {
  // Only the benchmark's own databases: bench_* or <prefix>bench_* (--db-prefix).
  if (!/^[a-z0-9_]*bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to touch database "${name}": only *bench_* databases`);
}

export async function createDatabase(name: string): Promise<void> {
  assertDatabaseName(name);
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
}

export async function dropDatabase(name: string): Promise<void> {
  assertDatabaseName(name);
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Checks that PostgreSQL and Redis answer before anything is started. */
export async function checkServers(): Promise<void> {
  await withAdmin((client) => client.query("SELECT 1")).catch((error: unknown) => {
    throw new Error(`PostgreSQL at ${POSTGRES_SERVER} does not answer: ${error instanceof Error ? error.message : String(error)}`);
  });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0, lazyConnect: true, connectTimeout: 3_000, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${REDIS_URL} does not answer: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key matching one of the patterns (SCAN, never KEYS); answers how many went. */
export async function deleteRedisKeys(patterns: readonly string[]): Promise<number> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    for (const pattern of patterns) {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 5_000);
        cursor = next;
        if (keys.length > 0) deleted += await redis.unlink(...keys);
      } while (cursor !== "0");
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
