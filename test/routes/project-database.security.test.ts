import { describe, expect } from "vitest";
import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores, readRecordStoreOwner } from "@/lib/records/get-record-store";
import { createScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createProjectFixture } from "@/test/fixtures";
import { setProcessEnv } from "@/test/support/process-env";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

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

const it = routeTest
  /** Two empty databases on DATABASE_URL's server, whose host the outbound guard lets through; dropped when the file ends. */
  .extend("databases", { scope: "file" }, async ({}, { onCleanup }) => {
    const shared = await createScratchDatabase(databaseUrl!, "project_db_shared");
    const raced = await createScratchDatabase(databaseUrl!, "project_db_raced");
    const { hostname, port } = new URL(shared.url);
    const restoreEnv = setProcessEnv({ OUTBOUND_ALLOWED_HOSTS: `${hostname}:${port || 5432}` });
    onCleanup(async () => {
      await closeAllRecordStores();
      await shared.drop();
      await raced.drop();
      restoreEnv();
    });
    return { shared, raced };
  })
  // Only a dependency: the route server starts once the databases' host is allowed.
  .extend("server", { scope: "file" }, ({ databases: _databases, server }) => server)
  // Two tenants: each project in a workspace of its own owner (`project` is the first).
  .extend("second", { scope: "file" }, () => createProjectFixture("Second tenant"))
  .extend("secondApi", { scope: "file" }, ({ server, second }) => projectApi(server, second));

const attach = (api: ProjectApi, database: Json) => api.call<Json>("PATCH", "", { database });

suite(title, () => {
  it("attaches the first project and writes a marker naming it", async ({ databases, ownerApi: firstApi, project: first }) => {
    const answer = await attach(firstApi, { kind: "postgres", url: databases.shared.url });
    expect(answer.status).toBe(200);
    expect(answer.body.database).toMatchObject({ kind: "postgres" });
    expect(await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: databases.shared.url })).toEqual({
      projectId: first.projectId,
      workspaceId: first.workspaceId,
      attachedAt: expect.any(String),
    });
    const store = await getProjectRecordStore({ projectId: first.projectId });
    await store.insert("_executions", { id: "exe_first_private", request: { body: "card 4242" } });
    await store.insert("customers", { email: "ada@first.example" });
  });

  it("re-attaching the same project is fine", async ({ databases, ownerApi: firstApi, project: first }) => {
    const before = await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: databases.shared.url });
    expect((await attach(firstApi, { kind: "postgres", url: databases.shared.url })).status).toBe(200);
    expect(await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: databases.shared.url })).toEqual(before);
  });

  it("reports the situation in the connection test without claiming the database", async ({ databases, ownerApi: firstApi, second, secondApi, project: first }) => {
    const answer = await secondApi.call<Json>("POST", "/database-test", { kind: "postgres", url: databases.shared.url });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: false, reason: "attached_to_another_project" });
    expect(answer.body.message).toMatch(/already attached to another Flowpoint project/);
    expect(JSON.stringify(answer.body)).not.toContain(first.projectId);
    expect((await readRecordStoreOwner({ projectId: second.projectId, kind: "postgres", url: databases.shared.url }))?.projectId).toBe(first.projectId);
    // The owner's own test still passes.
    expect((await firstApi.call<Json>("POST", "/database-test", { kind: "postgres", url: databases.shared.url })).body).toMatchObject({ ok: true });
  });

  it("refuses a second project with 409, naming the situation but not the other project, and saves nothing", async ({ databases, secondApi, project: first }) => {
    // Another spelling of the same database is the same database.
    for (const url of [databases.shared.url, `${databases.shared.url}?application_name=sneaky`]) {
      const answer = await attach(secondApi, { kind: "postgres", url });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatch(/^this database is already attached to another Flowpoint project; use a separate database/);
      expect(answer.body.error).toMatch(/takeOver/);
      expect(answer.body.issues).toEqual([{ path: "database.url", message: "is already attached to another Flowpoint project" }]);
      expect(JSON.stringify(answer.body)).not.toContain(first.projectId);
      expect(JSON.stringify(answer.body)).not.toContain(first.workspaceId);
    }
    const view = await secondApi.call<Json>("GET", "");
    expect(view.body.database).toEqual({ kind: "local", hint: null });
    expect((await readRecordStoreOwner({ projectId: first.projectId, kind: "postgres", url: databases.shared.url }))?.projectId).toBe(first.projectId);
  });

  it("checks the override's type", async ({ databases, secondApi }) => {
    const answer = await attach(secondApi, { kind: "postgres", url: databases.shared.url, takeOver: "yes" });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([expect.objectContaining({ path: "database.takeOver" })]);
  });

  it("lets exactly one of two projects racing for one empty database win", async ({ server, databases }) => {
    const racers = [await createProjectFixture("Racer one"), await createProjectFixture("Racer two")];
    const answers = await Promise.all(racers.map((racer) => attach(projectApi(server, racer), { kind: "postgres", url: databases.raced.url })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = racers[answers.findIndex((answer) => answer.status === 200)]!;
    expect((await readRecordStoreOwner({ projectId: winner.projectId, kind: "postgres", url: databases.raced.url }))?.projectId).toBe(winner.projectId);
  });

  it("moves the database with takeOver: the new project is served, the previous one stops", async ({ databases, second, secondApi, project: first }) => {
    const answer = await attach(secondApi, { kind: "postgres", url: databases.shared.url, takeOver: true });
    expect(answer.status).toBe(200);
    expect((await readRecordStoreOwner({ projectId: second.projectId, kind: "postgres", url: databases.shared.url }))?.projectId).toBe(second.projectId);
    const moved = await getProjectRecordStore({ projectId: second.projectId });
    expect(await moved.count("customers")).toBe(1);
    const previous = await getProjectRecordStore({ projectId: first.projectId });
    const error = await previous.find("customers").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("conflict");
    expect((error as AppError).message).not.toContain(second.projectId);
  });

  it("stops serving a project found sharing a database at runtime (attached before the marker existed)", async ({ databases, second }) => {
    const legacy = await createProjectFixture("Legacy");
    // Saved directly, as projects were before attaching claimed databases.
    const db = await getPlatformDb();
    await db
      .update(projects)
      .set({ databaseKind: "postgres", databaseUrlEncrypted: encryptSecret(databases.shared.url, { projectId: legacy.projectId }), databaseUrlHint: "postgres://****" })
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
