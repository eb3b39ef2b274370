import { mkdirSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { AppError } from "@/lib/errors";
import { StatementAbortedError, type SqlExecutor, type SqlResult } from "./sql-executor";

const SLOW_STATEMENT_MS = 5;

export interface PgliteExecutorOptions {
  /** The project's directory; the database opens on first use. */
  dataDir: string;
  /** Settles when an earlier instance over the same directory has closed (one instance per directory). */
  openAfter?: Promise<unknown>;
}

/**
 * Runs statements on an embedded PGlite database. PGlite executes on this thread and one statement
 * at a time, so a statement cannot be interrupted once it runs: an aborted signal stops work that
 * has not started, and the store reports a statement that ends past its deadline as a timeout.
 */
export function createPgliteExecutor(options: PgliteExecutorOptions): SqlExecutor {
  let opening: Promise<PGlite> | undefined;
  let closed = false;

  function open(): Promise<PGlite> {
    opening ??= (async () => {
      await options.openAfter?.catch(() => undefined);
      const { PGlite } = await import("@electric-sql/pglite");
      try {
        mkdirSync(options.dataDir, { recursive: true });
        // pg_trgm lets text search be served by an index (sql-record-store.ts, ensureSearchIndex).
        const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
        return await PGlite.create(options.dataDir, { extensions: { pg_trgm } });
      } catch (error) {
        throw new AppError("unavailable", "the local database could not be opened", { cause: error });
      }
    })();
    return opening;
  }

  async function ready(signal: AbortSignal): Promise<PGlite> {
    if (signal.aborted) throw new StatementAbortedError();
    const db = await open();
    if (signal.aborted) throw new StatementAbortedError();
    return db;
  }

  /**
   * While a long statement ran, this thread could not see timers or abort events come due. Let
   * them in before answering, so an abort that happened during the statement counts.
   */
  async function settle<T>(signal: AbortSignal, startedAt: number, result: T): Promise<T> {
    if (performance.now() - startedAt >= SLOW_STATEMENT_MS) await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal.aborted) throw new StatementAbortedError();
    return result;
  }

  return {
    async query(sql, params, signal): Promise<SqlResult> {
      const db = await ready(signal);
      const startedAt = performance.now();
      const result = await db.query<Record<string, unknown>>(sql, params);
      return settle(signal, startedAt, { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length });
    },
    async exec(sql, signal): Promise<void> {
      const db = await ready(signal);
      const startedAt = performance.now();
      await db.exec(sql);
      await settle(signal, startedAt, undefined);
    },
    async close(): Promise<void> {
      if (closed || !opening) return;
      closed = true;
      const db = await opening.catch(() => undefined);
      if (db && !db.closed) await db.close();
    },
  };
}
