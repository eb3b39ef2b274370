/**
 * The seam between the SQL record store and its database: PostgreSQL through a `pg` pool, or an
 * embedded PGlite directory. Each call is one round trip. Implementations cancel their work when
 * `signal` aborts (as far as the database allows) and reject with the driver's own error; the store
 * maps errors to AppError.
 */
export interface SqlExecutor {
  /** One statement with $1..$n parameters. */
  query(sql: string, params: unknown[], signal: AbortSignal, options?: QueryOptions): Promise<SqlResult>;
  /** Several statements without parameters, in one round trip (DDL). */
  exec(sql: string, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * The text is one of the few the store runs over and over (its inserts), the same whatever the
   * values: the executor may keep it prepared on its connections. Never for texts built per call.
   */
  frequent?: boolean;
}

export interface SqlResult {
  rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted (or returned, for SELECT). */
  rowCount: number;
}

/** Work whose signal fired before it started (or, on PGlite, while it ran); the store reports a timeout. */
export class StatementAbortedError extends Error {
  constructor() {
    super("the statement was aborted");
    this.name = "StatementAbortedError";
  }
}
