/**
 * Options every record store operation takes. Apart from record-store.ts so that database-owner.ts,
 * whose types record-store.ts re-exports, can use them without the two files importing each other.
 */
export interface OperationOptions {
  /**
   * Cuts the operation off (run budget); the store answers AppError("timeout") at once and stops
   * the work on the server where it can (PostgreSQL: the statement is cancelled). A write that
   * times out may or may not have been applied.
   */
  signal?: AbortSignal;
  /** Upper bound for this one operation in milliseconds (default 30 000). */
  timeoutMs?: number;
}
