import { describe, expect } from "vitest";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships } from "@/lib/platform-db/schema";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { createProjectFixture, createRevokedKey, createTestUser } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Who may read and change automations: API keys by permission (automations.read for reading,
 * automations.write for every change), workspace members and admins alike through the dashboard
 * session (with its CSRF rules), nobody from another project or workspace, and never another
 * project's automation through any route.
 */
type Json = Record<string, unknown>;
type Body = Json & { data?: Json[]; automations?: Json[] };

const manualAutomation = (name: string) => ({ name, trigger: { type: "manual" } });

const it = routeTest
  /** This project's client with a key that may read and write automations, and its manual automation. */
  .extend("mine", { scope: "file" }, async ({ ownerApi, project }) => {
    const key = await project.keyFor(["automations.read", "automations.write"]);
    const api = ownerApi.with({ credentials: { key } });
    const own = await api.call("POST", "/automations", manualAutomation("Mine"));
    expect(own.status).toBe(201);
    return { key, api, automationId: own.body.id as string };
  })
  /** Another project with a form automation, and its client. */
  .extend("theirs", { scope: "file" }, async ({ server }) => {
    const fixture = await createProjectFixture("Theirs");
    const key = await fixture.keyFor(["automations.read", "automations.write"]);
    const api = projectApi(server, fixture, { key });
    const created = await api.call("POST", "/automations", { name: "Their form", trigger: { type: "form", form: "contact" } });
    expect(created.status).toBe(201);
    return { fixture, key, api, automationId: created.body.id as string };
  });

/** Every route of this API with a body that would succeed, `:id` standing for an automation id. */
const ROUTES: Array<{ method: string; path: string; body?: unknown; needs: Permission }> = [
  { method: "GET", path: "/automations", needs: "automations.read" },
  { method: "POST", path: "/automations", body: manualAutomation("Created"), needs: "automations.write" },
  { method: "GET", path: "/automations/:id", needs: "automations.read" },
  { method: "PATCH", path: "/automations/:id", body: { name: "Renamed" }, needs: "automations.write" },
  { method: "DELETE", path: "/automations/:id", needs: "automations.write" },
  { method: "GET", path: "/automations/export", needs: "automations.read" },
  { method: "POST", path: "/automations/import", body: { automations: [manualAutomation("Imported")] }, needs: "automations.write" },
];

describe("credentials", () => {
  it("answers 401 without credentials and with a revoked key, on every route", async ({ project, mine }) => {
    const revoked = await createRevokedKey(project.projectId, [...PERMISSIONS]);
    for (const route of ROUTES) {
      const path = route.path.replace(":id", mine.automationId);
      const anonymous = await mine.api.with({ credentials: "anonymous" }).call(route.method, path, route.body);
      expect(anonymous.status, `${route.method} ${route.path}`).toBe(401);
      expect(anonymous.body).toEqual({ error: "authentication required", code: "unauthorized" });
      expect((await mine.api.with({ credentials: { key: revoked } }).call(route.method, path, route.body)).status, `revoked ${route.method} ${route.path}`).toBe(401);
    }
  });

  it("answers 403 to keys without the route's permission, automations.run included", async ({ project, mine }) => {
    const readOnly = await project.keyFor(["automations.read"]);
    const writeOnly = await project.keyFor(["automations.write"]);
    const others = await project.keyFor(PERMISSIONS.filter((permission): permission is Permission => !permission.startsWith("automations.")));
    const runOnly = await project.keyFor(["automations.run"]);
    for (const route of ROUTES) {
      const path = route.path.replace(":id", mine.automationId);
      const label = `${route.method} ${route.path}`;
      for (const key of [others, runOnly, route.needs === "automations.read" ? writeOnly : readOnly]) {
        const answer = await mine.api.with({ credentials: { key } }).call(route.method, path, route.body);
        expect(answer.status, label).toBe(403);
        expect(answer.body.error).toContain(route.needs);
      }
    }
    // Nothing was changed by the refused calls.
    const listed = await mine.api.call<Body>("GET", "/automations");
    expect(listed.body.data!.map((automation) => [automation.name, automation.version])).toEqual([["Mine", 1]]);
  });

  it("answers 404 project not found to another project's key and to a signed-in stranger", async ({ mine, theirs }) => {
    const stranger = await createTestUser("stranger");
    for (const route of ROUTES) {
      const path = route.path.replace(":id", mine.automationId);
      for (const credentials of [{ key: theirs.key }, { cookie: stranger.cookie }, { cookie: theirs.fixture.owner.cookie }]) {
        const answer = await mine.api.with({ credentials }).call(route.method, path, route.body);
        expect(answer.status, `${route.method} ${route.path}`).toBe(404);
        expect(answer.body).toEqual({ error: "project not found", code: "not_found" });
      }
    }
  });
});

describe("isolation between projects", () => {
  it("never reads, changes or deletes another project's automation through any route", async ({ mine, theirs }) => {
    const before = (await theirs.api.call("GET", `/automations/${theirs.automationId}`)).body;
    for (const route of ROUTES.filter((candidate) => candidate.path.includes(":id"))) {
      const answer = await mine.api.call<Body>(route.method, route.path.replace(":id", theirs.automationId), route.body);
      expect(answer.status, route.method).toBe(404);
      expect(answer.body).toEqual({ error: "automation not found", code: "not_found" });
    }
    const listed = await mine.api.call<Body>("GET", "/automations");
    expect(listed.body.data!.map((automation) => automation.id)).not.toContain(theirs.automationId);
    const exported = await mine.api.call<Body>("GET", "/automations/export");
    expect(JSON.stringify(exported.body)).not.toContain("Their form");

    // Their form slug is theirs only: the same slug here is a different automation, and an import
    // naming their automation creates one in this project without touching theirs.
    expect((await mine.api.call<Body>("POST", "/automations", { name: "My form", trigger: { type: "form", form: "contact" } })).status).toBe(201);
    const imported = await mine.api.call<Body>("POST", "/automations/import", { automations: [{ name: "Their form", trigger: { type: "manual" } }] });
    expect(imported.body).toMatchObject({ created: 1, updated: 0 });
    expect((await theirs.api.call("GET", `/automations/${theirs.automationId}`)).body).toEqual(before);
  });
});

describe("dashboard sessions", () => {
  it("let members and admins of the workspace manage automations alike", async ({ server, project, mine }) => {
    const member = await createTestUser("member");
    const db = await getPlatformDb();
    await db.insert(memberships).values({ workspaceId: project.workspaceId, userId: member.id, role: "member" });
    for (const [label, cookie] of [
      ["member", member.cookie],
      ["admin", project.owner.cookie],
    ] as const) {
      const session = mine.api.with({ credentials: { cookie } });
      const origin = { origin: server.url };
      const created = await session.call("POST", "/automations", manualAutomation(`By ${label}`), origin);
      expect(created.status, label).toBe(201);
      const id = created.body.id as string;
      expect((await session.call("GET", `/automations/${id}`, undefined, origin)).status, label).toBe(200);
      expect((await session.call("PATCH", `/automations/${id}`, { enabled: false }, origin)).body.enabled, label).toBe(false);
      expect((await session.call("GET", "/automations/export", undefined, origin)).status, label).toBe(200);
      expect((await session.call("POST", "/automations/import", { automations: [manualAutomation(`Imported by ${label}`)] }, origin)).status, label).toBe(200);
      expect((await session.call("DELETE", `/automations/${id}`, undefined, origin)).status, label).toBe(204);
    }
  });

  it("refuse cross-site changes (CSRF) and non-JSON bodies, and create nothing", async ({ server, project, ownerApi, mine }) => {
    const url = new URL(server.url);
    const sameHostOtherPort = `${url.protocol}//${url.hostname}:${Number(url.port) === 65535 ? 1 : Number(url.port) + 1}`;
    const cookie = project.owner.cookie;
    const before = (await mine.api.call<Body>("GET", "/automations")).body.data!.map((automation) => [automation.id, automation.version]);
    for (const origin of ["http://evil.example", sameHostOtherPort, "null"]) {
      for (const route of ROUTES.filter((candidate) => candidate.method !== "GET")) {
        const answer = await mine.api.with({ credentials: { cookie } }).call(route.method, route.path.replace(":id", mine.automationId), route.body, { origin });
        expect(answer.status, `${origin} ${route.method} ${route.path}`).toBe(403);
      }
    }
    const form = await ownerApi.fetch("/automations", {
      method: "POST",
      headers: { origin: server.url, "content-type": "text/plain" },
      body: JSON.stringify(manualAutomation("Form post")),
    });
    expect(form.status).toBe(415);
    const after = (await mine.api.call<Body>("GET", "/automations")).body.data!.map((automation) => [automation.id, automation.version]);
    expect(after).toEqual(before);
  });

  it("leave API-key calls alone: a key is an explicit credential, whatever the Origin", async ({ mine }) => {
    const answer = await mine.api.call("POST", "/automations", manualAutomation("By key"), { origin: "http://evil.example", "sec-fetch-site": "cross-site" });
    expect(answer.status).toBe(201);
  });
});
