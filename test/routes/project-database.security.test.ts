import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { closePlatformDb, getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores, readRecordStoreOwner } from "@/lib/records/get-record-store";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi } from "@/test/support/project-api";

/**
 * One database, one project (security issue 9, item 8), over real HTTP: collections carry no
 * project id, so a second project attached to a database another project holds would read and
 * write its records and execution logs. Attaching is refused with 409 unless the owner explicitly
 * takes the database over; the connection test reports the situation without claiming; two
 * projects racing for one empty database cannot both win; a share found at runtime stops serving.
 */
const databaseUrl = process.env.DATABASE_URL;
const suite = databaseUrl ? describe : describe.skip;
const title = databaseUrl
  ? "attaching a project to a database another project holds"
  : "attaching a project to a database another project holds — skipped: DATABASE_URL is not set";

type Json = Record<string, unknown>;

suite(title, () => {
  let server: RouteServer;
  let shared: ScratchDatabase;
  let raced: ScratchDatabase;
  let first: ProjectFixture;
  let second: ProjectFixture;
  const previousAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;

  beforeAll(async () => {
    shared = await createScratchDatabase(databaseUrl!, "project_db_shared");
    raced = await createScratchDatabase(databaseUrl!, "project_db_raced");
    const { hostname, port } = new URL(shared.url);
    process.env.OUTBOUND_ALLOWED_HOSTS = `${hostname}:${port || 5432}`;
    resetConfigForTests();
    server = await startRouteServer();
    // Two tenants: each project in a workspace of its own owner.
    first = await createProjectFixture("First tenant");
    second = await createProjectFixture("Second tenant");
  });

  afterAll(async () => {
    await server?.close();
    await closeAllRecordStores();
    await shared?.drop();
    await raced?.drop();
    if (previousAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
    else process.env.OUTBOUND_ALLOWED_HOSTS = previousAllowedHosts;
    resetConfigForTests();
    await closePlatformDb();
  });

  function call(fixture: ProjectFixture, method: string, suffix: string, body?: unknown): Promise<{ status: number; body: Json }> {
    return projectApi(server, fixture).call<Json>(method, suffix, body);
  }

  const attach = (fixture: ProjectFixture, database: Json) => call(fixture, "PATCH", "", { database });

  it("attaches the first project and writes a marker naming it", async () => {
    const answer = await attach(first, { kind: "postgres", url: shared.url });
    expect(answer.status).toBe(200);
    expect(answer.body.database).toMatchObject({ kind: "postgres" });
    expect(await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: shared.url })).toEqual({
      projectId: first.projectId,
      workspaceId: first.workspaceId,
      attachedAt: expect.any(String),
    });
    const store = await getProjectRecordStore({ projectId: first.projectId });
    await store.insert("_executions", { id: "exe_first_private", request: { body: "card 4242" } });
    await store.insert("customers", { email: "ada@first.example" });
  });

  it("re-attaching the same project is fine", async () => {
    const before = await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: shared.url });
    expect((await attach(first, { kind: "postgres", url: shared.url })).status).toBe(200);
    expect(await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: shared.url })).toEqual(before);
  });

  it("reports the situation in the connection test without claiming the database", async () => {
    const answer = await call(second, "POST", "/database-test", { kind: "postgres", url: shared.url });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: false, reason: "attached_to_another_project" });
    expect(answer.body.message).toMatch(/already attached to another Flowpoint project/);
    expect(JSON.stringify(answer.body)).not.toContain(first.projectId);
    expect((await readRecordStoreOwner({ projectId: second.projectId, kind: "postgres", url: shared.url }))?.projectId).toBe(first.projectId);
    // The owner's own test still passes.
    expect((await call(first, "POST", "/database-test", { kind: "postgres", url: shared.url })).body).toMatchObject({ ok: true });
  });

  it("refuses a second project with 409, naming the situation but not the other project, and saves nothing", async () => {
    // Another spelling of the same database is the same database.
    for (const url of [shared.url, `${shared.url}?application_name=sneaky`]) {
      const answer = await attach(second, { kind: "postgres", url });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatch(/^this database is already attached to another Flowpoint project; use a separate database/);
      expect(answer.body.error).toMatch(/takeOver/);
      expect(answer.body.issues).toEqual([{ path: "database.url", message: "is already attached to another Flowpoint project" }]);
      expect(JSON.stringify(answer.body)).not.toContain(first.projectId);
      expect(JSON.stringify(answer.body)).not.toContain(first.workspaceId);
    }
    const view = await call(second, "GET", "");
    expect(view.body.database).toEqual({ kind: "local", hint: null });
    expect((await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: shared.url }))?.projectId).toBe(first.projectId);
  });

  it("checks the override's type", async () => {
    const answer = await attach(second, { kind: "postgres", url: shared.url, takeOver: "yes" });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([expect.objectContaining({ path: "database.takeOver" })]);
  });

  it("lets exactly one of two projects racing for one empty database win", async () => {
    const racers = [await createProjectFixture("Racer one"), await createProjectFixture("Racer two")];
    const answers = await Promise.all(racers.map((racer) => attach(racer, { kind: "postgres", url: raced.url })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = racers[answers.findIndex((answer) => answer.status === 200)]!;
    expect((await readRecordStoreOwner({ projectId: winner.projectId, kind: "postgres", url: raced.url }))?.projectId).toBe(winner.projectId);
  });

  it("moves the database with takeOver: the new project is served, the previous one stops", async () => {
    const answer = await attach(second, { kind: "postgres", url: shared.url, takeOver: true });
    expect(answer.status).toBe(200);
    expect((await readRecordStoreOwner({ projectId: second.projectId, kind: "postgres", url: shared.url }))?.projectId).toBe(second.projectId);
    const moved = await getProjectRecordStore({ projectId: second.projectId });
    expect(await moved.count("customers")).toBe(1);
    const previous = await getProjectRecordStore({ projectId: first.projectId });
    const error = await previous.find("customers").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("conflict");
    expect((error as AppError).message).not.toContain(second.projectId);
  });

  it("stops serving a project found sharing a database at runtime (attached before the marker existed)", async () => {
    const legacy = await createProjectFixture("Legacy");
    // Saved directly, as projects were before attaching claimed databases.
    const db = await getPlatformDb();
    await db
      .update(projects)
      .set({ databaseKind: "postgres", databaseUrlEncrypted: encryptSecret(shared.url, { projectId: legacy.projectId }), databaseUrlHint: "postgres://****" })
      .where(eq(projects.id, legacy.projectId));
    const store = await getProjectRecordStore({ projectId: legacy.projectId });
    for (const run of [
      () => store.find("customers"),
      () => store.findByIds("_executions", ["exe_first_private"]),
      () => store.insert("customers", { email: "eve@legacy.example" }),
    ]) {
      const error = await run().catch((caught: unknown) => caught);
      expect((error as AppError).code).toBe("conflict");
      expect((error as AppError).status).toBe(409);
    }
    expect(await (await getProjectRecordStore({ projectId: second.projectId })).count("customers")).toBe(1);
  });
});
