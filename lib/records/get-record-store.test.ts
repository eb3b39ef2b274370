import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { closeAllRecordStores, getRecordStore, openRecordStoreCount, testRecordStoreConnection } from "./get-record-store";
import { closedPort } from "./testing/local-servers";
import { createScratchDatabase, type ScratchDatabase } from "./testing/scratch-postgres";

const databaseUrl = process.env.DATABASE_URL;

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

afterAll(closeAllRecordStores);

describe("getRecordStore: local (PGlite) stores", () => {
  it("shares one store per project, in a directory of the project under DATA_DIR", async () => {
    const projectId = newId("project");
    const first = getRecordStore({ projectId, kind: "local" });
    const second = getRecordStore({ projectId, kind: "local" });
    expect(first.kind).toBe("pglite");
    const record = await first.insert("tickets", { title: "shared" }, { timeoutMs: 60_000 });
    expect(await second.findByIds("tickets", [record.id])).toEqual([record]);
    expect(second.metrics).toBe(first.metrics);
    expect(existsSync(path.resolve(getConfig().DATA_DIR, "projects", projectId))).toBe(true);
    await first.close();
  }, 60_000);

  it("closes a store after its idle time and reopens it, data intact, on the next call", async () => {
    const projectId = newId("project");
    const store = getRecordStore({ projectId, kind: "local" }, { idleMs: 100 });
    const before = openRecordStoreCount();
    const record = await store.insert("tickets", { title: "kept" }, { timeoutMs: 60_000 });
    expect(openRecordStoreCount()).toBe(before + 1);
    expect(await waitFor(() => openRecordStoreCount() === before, 10_000)).toBe(true);
    expect(await store.find("tickets", { timeoutMs: 60_000 })).toEqual([record]);
    await store.close();
  }, 60_000);

  it("close() on a handle closes the shared store; the next operation opens it again", async () => {
    const projectId = newId("project");
    const store = getRecordStore({ projectId, kind: "local" });
    await store.insert("notes", { n: 1 }, { timeoutMs: 60_000 });
    await store.close();
    expect(await store.count("notes", { timeoutMs: 60_000 })).toBe(1);
    await closeAllRecordStores();
    expect(openRecordStoreCount()).toBe(0);
    expect(await store.count("notes", { timeoutMs: 60_000 })).toBe(1);
    await store.close();
  }, 60_000);

  it("keeps the pool on globalThis so module reloads find it", () => {
    expect((globalThis as { __flowpointRecordStores?: unknown }).__flowpointRecordStores).toBeDefined();
  });
});

describe("getRecordStore: targets", () => {
  it("refuses bad targets without repeating the URL", () => {
    const cases: [Parameters<typeof getRecordStore>[0], string][] = [
      [{ projectId: "../etc", kind: "local" }, "projectId"],
      [{ projectId: "prj_1", kind: "postgres", url: "mysql://root:hunter2@h/db" }, "url"],
      [{ projectId: "prj_1", kind: "postgres" }, "url"],
      [{ projectId: "prj_1", kind: "mongodb", url: "postgres://root:hunter2@h/db" }, "url"],
      [{ projectId: "prj_1", kind: "sqlite" as never }, "kind"],
    ];
    for (const [target, path] of cases) {
      let error: unknown;
      try {
        getRecordStore(target);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("validation_failed");
      expect((error as AppError).issues?.[0]?.path).toBe(path);
      expect(JSON.stringify({ message: (error as AppError).message, issues: (error as AppError).issues })).not.toContain("hunter2");
    }
  });

  it("answers unavailable (lazily, on the first operation) when a server cannot be reached", async () => {
    const port = await closedPort();
    const store = getRecordStore({ projectId: newId("project"), kind: "postgres", url: `postgres://app:hunter2@127.0.0.1:${port}/shop` });
    const error = await store.ping().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as AppError).code).toBe("unavailable");
    expect((error as AppError).message).not.toContain("hunter2");
    await store.close();
  });
});

describe("testRecordStoreConnection", () => {
  it("local: the built-in database is ready", async () => {
    expect(await testRecordStoreConnection({ projectId: newId("project"), kind: "local" })).toEqual({ ok: true, message: "The built-in database is ready." });
  }, 60_000);

  it("postgres: classifies a refused connection and never shows the password", async () => {
    const port = await closedPort();
    // The outbound guard refuses loopback unless it is allow-listed (as an operator would for an internal server).
    const previousAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;
    process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${port}`;
    resetConfigForTests();
    const result = await testRecordStoreConnection({ projectId: "prj_1", kind: "postgres", url: `postgres://app:hunter2@127.0.0.1:${port}/shop` }).finally(() => {
      if (previousAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
      else process.env.OUTBOUND_ALLOWED_HOSTS = previousAllowedHosts;
      resetConfigForTests();
    });
    expect(result.ok).toBe(false);
    expect(result.reason).toBe("connection_refused");
    expect(result.message).toContain(`127.0.0.1:${port}`);
    expect(result.message).not.toContain("hunter2");
  });

  it.skipIf(!databaseUrl)("postgres: connects to the real server", async () => {
    expect((await testRecordStoreConnection({ projectId: "prj_1", kind: "postgres", url: databaseUrl as string })).ok).toBe(true);
  });
});

describe.skipIf(!databaseUrl)("getRecordStore: PostgreSQL pools", () => {
  let scratch: ScratchDatabase;
  // One project: a database serves one project only (database-owner.ts).
  const projectId = newId("project");
  beforeAll(async () => {
    scratch = await createScratchDatabase(databaseUrl as string, "records_pool");
  });
  afterAll(async () => {
    await closeAllRecordStores();
    await scratch?.drop();
  });

  it("opens a new pool when the project's URL changes", async () => {
    const before = openRecordStoreCount();
    const first = getRecordStore({ projectId, kind: "postgres", url: scratch.url });
    const changed = getRecordStore({ projectId, kind: "postgres", url: `${scratch.url}?application_name=flowpoint-records` });
    expect(first.kind).toBe("postgres");
    await first.ping();
    await changed.ping();
    expect(openRecordStoreCount()).toBe(before + 2);
    expect(changed.metrics).not.toBe(first.metrics);
    await first.close();
    await changed.close();
  });

  it("does not close a store while an operation is running, however long it is idle otherwise", async () => {
    const store = getRecordStore({ projectId, kind: "postgres", url: scratch.url }, { idleMs: 50 });
    await store.insert("locked", { a: 1 });
    const locker = new pg.Client({ connectionString: scratch.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query('LOCK TABLE flowpoint_records."locked" IN ACCESS EXCLUSIVE MODE');
      // Counted once the operation holds the store: the store may have been closed (idle) while the lock was taken.
      const counting = store.count("locked", { timeoutMs: 10_000 });
      const before = openRecordStoreCount();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(openRecordStoreCount()).toBe(before);
      await locker.query("ROLLBACK");
      expect(await counting).toBe(1);
      expect(await waitFor(() => openRecordStoreCount() === before - 1, 5_000)).toBe(true);
    } finally {
      await locker.end();
    }
  });
});
