import type { RecordStore } from "../record-store";
import { createPgPoolExecutor, type PgPoolExecutorOptions } from "./pg-pool-executor";
import { createSqlRecordStore } from "./sql-record-store";

export interface PostgresRecordStoreOptions extends PgPoolExecutorOptions {
  /** Applies to operations called without timeoutMs (default 30 s). */
  defaultTimeoutMs?: number;
}

/** The record store on a PostgreSQL server (JSONB documents), over a `pg` pool of its own. */
export function createPostgresRecordStore(options: PostgresRecordStoreOptions): RecordStore {
  return createSqlRecordStore({ executor: createPgPoolExecutor(options), kind: "postgres", defaultTimeoutMs: options.defaultTimeoutMs });
}
