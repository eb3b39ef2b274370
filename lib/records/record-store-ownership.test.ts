import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { closeAllRecordStores, getRecordStore, readRecordStoreOwner } from "./get-record-store";
import { createPgliteRecordStore } from "./postgres/create-pglite-record-store";
import { createPostgresRecordStore } from "./postgres/create-postgres-record-store";
import { createScratchDatabase, type ScratchDatabase } from "./testing/scratch-postgres";

/**
 * One database, one project, as the pool enforces it: a store is claimed for its project before its
 * first operation (once, not per call), a database another project holds answers conflict instead
 * of serving, a takeOver moves it, and open stores notice a takeover made elsewhere.
 */
async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const TAKEN = /^this project's database is attached to another Flowpoint project/;

afterAll(closeAllRecordStores);

describe("record store pool ownership (PGlite)", () => {
  const projectId = newId("project");
  const directory = () => path.resolve(getConfig().DATA_DIR, "projects", projectId);
  afterAll(async () => {
    await closeAllRecordStores();
    await rm(directory(), { recursive: true, force: true });
  });

  it("claims the built-in database on first use, without counting it as a query", async () => {
    const store = getRecordStore({ projectId, workspaceId: "wks_own", kind: "local" });
    await store.insert("tickets", { title: "mine" });
    expect(store.metrics.queries).toBeGreaterThan(0);
    expect(await store.readOwner()).toEqual({ projectId, workspaceId: "wks_own", attachedAt: expect.any(String) });
    await store.close();
  });

  it("refuses to serve a directory whose marker names another project", async () => {
    const raw = createPgliteRecordStore({ dataDir: directory() });
    await raw.claimOwnership({ projectId: "prj_someone_else" }, { takeOver: true });
    await raw.close();

    const store = getRecordStore({ projectId, kind: "local" });
    for (const run of [() => store.find("tickets"), () => store.insert("tickets", { title: "x" }), () => store.count("tickets"), () => store.ping()]) {
      const error = await errorOf(run());
      expect(error.code).toBe("conflict");
      expect(error.status).toBe(409);
      expect(error.message).toMatch(TAKEN);
      expect(error.message).not.toContain("prj_someone_else");
    }
    await store.claimOwnership({ projectId }, { takeOver: true });
    expect(await store.count("tickets")).toBe(1);
  }, 60_000);
});

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  describe("record store pool ownership (PostgreSQL)", () => {
    let scratch: ScratchDatabase;
    afterAll(async () => {
      await closeAllRecordStores();
      await scratch?.drop();
    });

    it("serves the first project and refuses a second one on the same database, without leaking a record", async () => {
      scratch = await createScratchDatabase(databaseUrl, "records_owner");
      const projectA = newId("project");
      const projectB = newId("project");
      const a = getRecordStore({ projectId: projectA, kind: "postgres", url: scratch.url });
      const b = getRecordStore({ projectId: projectB, kind: "postgres", url: `${scratch.url}?application_name=other` });
      await a.insert("_executions", { id: "exe_a", secret: "of project A" });
      await a.insert("tickets", { title: "A's ticket" });

      for (const run of [() => b.find("tickets"), () => b.findByIds("_executions", ["exe_a"]), () => b.insert("tickets", { title: "B's" }), () => b.deleteMany("tickets", [])]) {
        const error = await errorOf(run());
        expect(error.code).toBe("conflict");
        expect(error.message).toMatch(TAKEN);
        expect(error.message).not.toContain(projectA);
      }
      expect(await a.count("tickets")).toBe(1);
      expect((await a.readOwner())?.projectId).toBe(projectA);

      // The explicit override moves the database; the previous owner's store in this process stops
      // (at once when it uses the same URL, after a background re-check when the URL differs).
      const sameUrlAsB = getRecordStore({ projectId: newId("project"), kind: "postgres", url: `${scratch.url}?application_name=other` });
      expect((await errorOf(sameUrlAsB.count("tickets"))).code).toBe("conflict");
      const moved = await b.claimOwnership({ projectId: projectB }, { takeOver: true });
      expect(moved.projectId).toBe(projectB);
      expect(await b.count("tickets")).toBe(1);
      expect((await errorOf(sameUrlAsB.count("tickets"))).code).toBe("conflict");
      await expect.poll(async () => (await a.count("tickets").catch((error: AppError) => error.code)) as unknown, { timeout: 5_000 }).toBe("conflict");
      await a.close();
      await b.close();
    });

    it("claims once per opened store, and notices a takeover made on another instance", async () => {
      const projectC = newId("project");
      const c = getRecordStore({ projectId: projectC, kind: "postgres", url: `${scratch.url}?application_name=c` }, { ownershipRecheckMs: 200 });
      const raw = createPostgresRecordStore({ url: scratch.url });
      try {
        await raw.claimOwnership({ projectId: projectC }, { takeOver: true });
        expect(await c.count("tickets")).toBe(1);
        // Another instance takes the database over: this store keeps its verdict until the re-check is due...
        await raw.claimOwnership({ projectId: "prj_elsewhere" }, { takeOver: true });
        expect(await c.count("tickets")).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 250));
        // ...then re-checks in the background (this call is still served) and refuses from then on.
        expect(await c.count("tickets")).toBe(1);
        await expect.poll(async () => (await c.count("tickets").catch((error: AppError) => error.code)) as unknown, { timeout: 5_000 }).toBe("conflict");
      } finally {
        await raw.close();
        await c.close();
      }
    });

    it("reads the owner of a database outside the pool, claiming nothing", async () => {
      const fresh = await createScratchDatabase(databaseUrl, "records_owner_read");
      try {
        expect(await readRecordStoreOwner({ projectId: newId("project"), kind: "postgres", url: fresh.url })).toBeNull();
        const raw = createPostgresRecordStore({ url: fresh.url });
        await raw.claimOwnership({ projectId: "prj_reader" });
        await raw.close();
        expect(await readRecordStoreOwner({ projectId: newId("project"), kind: "postgres", url: fresh.url })).toMatchObject({ projectId: "prj_reader" });
      } finally {
        await closeAllRecordStores();
        await fresh.drop();
      }
    });
  });
} else {
  describe("record store pool ownership (PostgreSQL) — skipped: DATABASE_URL is not set", () => {
    it.skip("runs against a real PostgreSQL server when DATABASE_URL is set", () => undefined);
  });
}
