import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseAllowedHosts } from "@/lib/outbound/allowed-hosts";
import { closedPort } from "../testing/local-servers";
import { createScratchDatabase, type ScratchDatabase } from "../testing/scratch-postgres";
import { createPgPoolExecutor } from "./pg-pool-executor";
import { createPostgresRecordStore } from "./create-postgres-record-store";
import { StatementAbortedError } from "./sql-executor";
import { createSqlRecordStore } from "./sql-record-store";

const databaseUrl = process.env.DATABASE_URL;

/** Statements of the record store waiting for a lock right now. */
async function waitingOnLock(admin: pg.Client): Promise<number> {
  const result = await admin.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'flowpoint-records' AND state = 'active' AND wait_event_type = 'Lock'",
  );
  return (result.rows[0] as { n: number }).n;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe.skipIf(!databaseUrl)("PostgreSQL executor: aborting cancels the work on the server", () => {
  let scratch: ScratchDatabase;
  let url: string;
  let admin: pg.Client;
  beforeAll(async () => {
    scratch = await createScratchDatabase(databaseUrl as string, "records_cancel");
    url = scratch.url;
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await scratch?.drop();
  });

  it("cancels a running statement with pg_cancel_backend and keeps the pool usable", async () => {
    const executor = createPgPoolExecutor({ url, maxConnections: 1 });
    const marker = `sleep_${randomBytes(4).toString("hex")}`;
    try {
      const controller = new AbortController();
      const running = executor.query(`SELECT pg_sleep(30), '${marker}'`, [], controller.signal);
      running.catch(() => undefined);
      const started = await waitFor(
        async () => (await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE $1 AND state = 'active'", [`%${marker}%`])).rows[0].n === 1,
        5_000,
      );
      expect(started).toBe(true);
      controller.abort();
      const error = await running.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect((error as { code?: string }).code).toBe("57014"); // query_canceled: the server stopped it
      const gone = await waitFor(
        async () => (await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE $1 AND state = 'active'", [`%${marker}%`])).rows[0].n === 0,
        5_000,
      );
      expect(gone).toBe(true);
      // The only connection was closed rather than reused; a new one serves the next statement.
      const next = await executor.query("SELECT 41 + 1 AS n", [], new AbortController().signal);
      expect(next.rows).toEqual([{ n: 42 }]);
    } finally {
      await executor.close();
    }
  });

  it("a store operation past its timeoutMs answers timeout and the server stops waiting too", async () => {
    const store = createPostgresRecordStore({ url });
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await store.insert("locked", { a: 1 });
      // Another session holds the table: without a real cancel the count would wait as long as it does.
      await locker.query("BEGIN");
      await locker.query('LOCK TABLE flowpoint_records."locked" IN ACCESS EXCLUSIVE MODE');
      const error = await store.count("locked", { timeoutMs: 200 }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("timeout");
      expect(await waitFor(async () => (await waitingOnLock(admin)) === 0, 5_000)).toBe(true);
      await locker.query("ROLLBACK");
      expect(await store.count("locked")).toBe(1);
    } finally {
      await locker.end();
      await store.close();
    }
  });

  it("rejects work whose signal fired before it started, without a connection", async () => {
    const executor = createPgPoolExecutor({ url });
    try {
      await expect(executor.query("SELECT 1", [], AbortSignal.abort())).rejects.toBeInstanceOf(StatementAbortedError);
    } finally {
      await executor.close();
    }
  });
});

describe("PostgreSQL record store without a reachable server", () => {
  it("answers unavailable when the server refuses connections, without the URL or password", async () => {
    const port = await closedPort();
    const store = createPostgresRecordStore({
      url: `postgres://app:hunter2@127.0.0.1:${port}/shop`,
      connectionTimeoutMs: 500,
      guard: { allowedHosts: parseAllowedHosts("127.0.0.1") },
    });
    try {
      for (const run of [() => store.ping(), () => store.insert("tickets", { a: 1 }), () => store.find("tickets")]) {
        const error = await run().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("unavailable");
        expect((error as AppError).message).toBe("the database is unavailable");
      }
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!databaseUrl)("PostgreSQL executor: frequent statements kept prepared", () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase(databaseUrl as string, "records_prepared");
  });
  afterAll(async () => {
    await scratch?.drop();
  });

  const signal = () => AbortSignal.timeout(10_000);
  const preparedOn = async (executor: ReturnType<typeof createPgPoolExecutor>) =>
    (await executor.query("SELECT name, statement FROM pg_prepared_statements ORDER BY name", [], signal())).rows;

  it("prepares a frequent text once per connection, and no other", async () => {
    const executor = createPgPoolExecutor({ url: scratch.url, maxConnections: 1 });
    try {
      for (const value of [1, 2, 3]) {
        const result = await executor.query("SELECT $1::int + 1 AS n", [value], signal(), { frequent: true });
        expect(result.rows).toEqual([{ n: value + 1 }]);
      }
      await executor.query("SELECT $1::int * 2 AS n", [4], signal());
      expect(await preparedOn(executor)).toEqual([{ name: expect.stringMatching(/^fp_[0-9a-f]{24}$/), statement: "SELECT $1::int + 1 AS n" }]);
    } finally {
      await executor.close();
    }
  });

  it("runs a statement whose name the server does not know again unnamed (a transaction-mode pooler), and names none after", async () => {
    const executor = createPgPoolExecutor({ url: scratch.url, maxConnections: 1 });
    try {
      await executor.query("SELECT $1::int + 1 AS n", [1], signal(), { frequent: true });
      // What a pooler does to a named statement: the next server connection has never seen it.
      await executor.exec("DEALLOCATE ALL", signal());
      const refused = await executor.query("SELECT $1::int + 1 AS n", [41], signal(), { frequent: true });
      expect(refused.rows).toEqual([{ n: 42 }]);
      await executor.query("SELECT $1::int - 1 AS n", [1], signal(), { frequent: true });
      expect(await preparedOn(executor)).toEqual([]);
    } finally {
      await executor.close();
    }
  });

  it("keeps the store's insert prepared when the first insert into a new collection had to create its table", async () => {
    // The first Parse fails (the table is missing), the store creates the table and runs the insert again:
    // the failed Parse must not leave pg believing the name is prepared, or the retry's Bind would be refused.
    const executor = createPgPoolExecutor({ url: scratch.url, maxConnections: 1 });
    const store = createSqlRecordStore({ executor, kind: "postgres" });
    try {
      await store.insert("fresh_notes", { n: 1 });
      await store.insert("fresh_notes", { n: 2 });
      expect(await store.count("fresh_notes", {})).toBe(2);
      const prepared = await preparedOn(executor);
      expect(prepared.some((row) => String(row.statement).includes('"fresh_notes"') && String(row.statement).startsWith("INSERT"))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("stores an insert's row once when the server refuses its name", async () => {
    const executor = createPgPoolExecutor({ url: scratch.url, maxConnections: 1 });
    try {
      await executor.exec("CREATE TABLE prepared_rows (id int PRIMARY KEY)", signal());
      const insert = "INSERT INTO prepared_rows (id) VALUES ($1)";
      await executor.query(insert, [1], signal(), { frequent: true });
      await executor.exec("DEALLOCATE ALL", signal());
      await executor.query(insert, [2], signal(), { frequent: true });
      expect((await executor.query("SELECT id FROM prepared_rows ORDER BY id", [], signal())).rows).toEqual([{ id: 1 }, { id: 2 }]);
    } finally {
      await executor.close();
    }
  });
});
