import type { RecordStore } from "../record-store";
import { createPgliteExecutor, type PgliteExecutorOptions } from "./pglite-executor";
import { createSqlRecordStore } from "./sql-record-store";

export interface PgliteRecordStoreOptions extends PgliteExecutorOptions {
  /** Applies to operations called without timeoutMs (default 30 s). */
  defaultTimeoutMs?: number;
}

/**
 * The embedded record store: the PostgreSQL implementation over a PGlite directory. Only one
 * instance may have a directory open at a time (getRecordStore makes sure of it).
 */
export function createPgliteRecordStore(options: PgliteRecordStoreOptions): RecordStore {
  return createSqlRecordStore({ executor: createPgliteExecutor(options), kind: "pglite", defaultTimeoutMs: options.defaultTimeoutMs });
}
