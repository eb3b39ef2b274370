import { createHash } from "node:crypto";
import pg from "pg";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { type ConnectGuardOptions, guardedStreamFactory } from "@/lib/outbound/guarded-socket";
import { StatementAbortedError, type QueryOptions, type SqlExecutor, type SqlResult } from "./sql-executor";

export interface PgPoolExecutorOptions {
  /** A postgres:// connection string (decrypted; never logged). */
  url: string;
  /** Connections per pool (one pool per project). */
  maxConnections?: number;
  connectionTimeoutMs?: number;
  /**
   * Server-side cap for any one statement (default 5 minutes), sent once at connection start: a
   * safety net for work whose cancellation could not be delivered.
   */
  statementTimeoutMs?: number;
  /** How long an aborted statement may take to stop before its connection is closed instead. */
  cancelGraceMs?: number;
  /** Seams of the outbound guard every connection passes (tests inject a resolver); the policy itself always applies. */
  guard?: ConnectGuardOptions;
}

/**
 * Opening a connection failed: the database is unavailable, whatever the driver said. A refusal by the
 * outbound guard is not the caller's input being invalid either; its message names only the host.
 */
function connectFailure(error: unknown): unknown {
  if (isAppError(error)) {
    return error.code === "validation_failed" ? new AppError("unavailable", `the database is unavailable: ${error.message}`, { cause: error }) : error;
  }
  // Driver errors with a code are mapped by the store (authentication, missing database, ...).
  if (typeof (error as { code?: unknown })?.code === "string") return error;
  return new AppError("unavailable", "the database is unavailable", { cause: error });
}

/** How many texts a pool keeps prepared at most: a bound on each server connection's memory for them. */
const MAX_PREPARED_TEXTS = 200;

/** PostgreSQL's refusals of a named statement: "does not exist" (26000) and "already exists" (42P05). */
const PREPARED_STATEMENT_REFUSALS: ReadonlySet<string> = new Set(["26000", "42P05"]);

function isPreparedStatementRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && PREPARED_STATEMENT_REFUSALS.has(code);
}

/**
 * Names the frequent statements' texts (QueryOptions.frequent), so that each connection prepares
 * them once: PostgreSQL then binds and runs them without parsing and planning them again. For a
 * write with its outbox entry that was half of the statement's time (pgbench, one client:
 * 0.31–0.37 ms unnamed, 0.16–0.17 ms prepared).
 *
 * A transaction-mode pooler in front of the database (PgBouncer before 1.21, Supavisor) sends a
 * connection's statements to server connections that do not know the name. Its first refusal turns
 * naming off for the pool and the refused statement runs again unnamed: PostgreSQL refuses a name at
 * Parse or Bind, before anything runs, so nothing is done twice.
 */
class StatementNames {
  private readonly names = new Map<string, string>();
  private refused = false;

  /** The name to run `sql` under, or undefined to run it unnamed. */
  nameOf(sql: string): string | undefined {
    if (this.refused) return undefined;
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_PREPARED_TEXTS) {
      name = `fp_${createHash("sha256").update(sql).digest("hex").slice(0, 24)}`;
      this.names.set(sql, name);
    }
    return name;
  }

  /** Turns naming off after a refusal; true when `error` was one (the statement did not run). */
  refusedBy(error: unknown): boolean {
    if (!isPreparedStatementRefusal(error)) return false;
    if (!this.refused) log.warn("record store: the database refuses prepared statements (a transaction-mode pooler?); statements run unprepared");
    this.refused = true;
    return true;
  }
}

/**
 * Runs statements on a `pg` pool. Aborting really stops the server-side work: the backend running
 * the statement gets pg_cancel_backend() over a separate short-lived connection, and the
 * connection that ran it is then closed rather than reused (a late cancel must never hit the next
 * statement). If the statement does not stop within cancelGraceMs, its connection is closed anyway.
 */
export function createPgPoolExecutor(options: PgPoolExecutorOptions): SqlExecutor {
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? 5_000;
  // The URL comes from a project owner: every connection (pool or cancel) runs the outbound guard when
  // it opens and dials the address the guard checked, so a name that rebinds to a private address
  // after the URL was saved reaches nothing.
  const stream = guardedStreamFactory(options.guard);
  const pool = new pg.Pool({
    connectionString: options.url,
    stream,
    max: options.maxConnections ?? 5,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis,
    statement_timeout: options.statementTimeoutMs ?? 300_000,
    application_name: "flowpoint-records",
  });
  // An idle client that loses its server must not crash the process. Codes only: no driver text.
  pool.on("error", (error: Error & { code?: string }) => log.warn("record store: idle connection failed", { code: error.code ?? "unknown" }));
  const statementNames = new StatementNames();

  async function cancelBackend(processId: number): Promise<void> {
    const canceller = new pg.Client({ connectionString: options.url, stream, connectionTimeoutMillis, application_name: "flowpoint-records-cancel" });
    // A server that goes away while the cancel is open emits "error" on the client: without a listener, an uncaught exception.
    canceller.on("error", () => undefined);
    try {
      await canceller.connect();
      await canceller.query("SELECT pg_cancel_backend($1)", [processId]);
    } catch (error) {
      log.warn("record store: could not cancel a statement", { code: (error as { code?: string }).code ?? "unknown" });
    } finally {
      canceller.end().catch(() => undefined);
    }
  }

  async function checkOut(signal: AbortSignal): Promise<pg.PoolClient> {
    if (signal.aborted) throw new StatementAbortedError();
    const connecting = pool.connect().catch((error: unknown) => {
      throw connectFailure(error);
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new StatementAbortedError());
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([connecting, aborted]);
    } catch (error) {
      // The pool may still hand us a client after we gave up waiting: give it straight back.
      connecting.then(
        (client) => client.release(),
        () => undefined,
      );
      throw error;
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }

  async function onClient<T>(signal: AbortSignal, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await checkOut(signal);
    let released = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const destroy = () => {
      if (released) return;
      released = true;
      client.release(true);
    };
    const onAbort = () => {
      const processId = (client as unknown as { processID?: number }).processID;
      if (typeof processId === "number") void cancelBackend(processId);
      graceTimer = setTimeout(destroy, options.cancelGraceMs ?? 5_000);
      graceTimer.unref();
    };
    // pg-pool takes its own error listener off a client while it is checked out, and `pg` emits
    // 'error' when the server goes away under it (a customer database stopped mid-run): with no
    // listener that is an uncaught exception that takes the whole process down. The statement's own
    // promise rejects with the same error; the broken client is closed rather than reused.
    let broken = false;
    const onClientError = () => {
      broken = true;
    };
    client.on("error", onClientError);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await work(client);
    } finally {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(graceTimer);
      // A client that failed keeps a listener: late errors of a dead connection are expected.
      if (!broken) client.off("error", onClientError);
      if (signal.aborted || broken) destroy();
      else if (!released) {
        released = true;
        client.release();
      }
    }
  }

  return {
    async query(sql, params, signal, queryOptions?: QueryOptions): Promise<SqlResult> {
      return onClient(signal, async (client) => {
        const name = queryOptions?.frequent ? statementNames.nameOf(sql) : undefined;
        let result: pg.QueryResult;
        try {
          result = name === undefined ? await client.query(sql, params) : await client.query({ name, text: sql, values: params });
        } catch (error) {
          if (name === undefined || !statementNames.refusedBy(error)) throw error;
          result = await client.query(sql, params);
        }
        return { rows: result.rows as Record<string, unknown>[], rowCount: result.rowCount ?? result.rows.length };
      });
    },
    async exec(sql, signal): Promise<void> {
      await onClient(signal, (client) => client.query(sql));
    },
    async close(): Promise<void> {
      if (!pool.ended) await pool.end();
    },
  };
}
