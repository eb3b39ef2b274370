import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb, getPlatformDb } from "@/lib/platform-db/client";
import { memberships } from "@/lib/platform-db/schema";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { createProjectFixture, createRevokedKey, createTestUser, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi, type ApiCredentials } from "@/test/support/project-api";

/**
 * Who may read and change automations: API keys by permission (automations.read for reading,
 * automations.write for every change), workspace members and admins alike through the dashboard
 * session (with its CSRF rules), nobody from another project or workspace, and never another
 * project's automation through any route.
 */
type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body: Json & { data?: Json[]; automations?: Json[] };
}
type Credentials = { key: string } | { cookie: string; headers?: Record<string, string> } | null;

let server: RouteServer;
let mine: ProjectFixture;
let theirs: ProjectFixture;
let myKey: string;
let theirKey: string;
let theirAutomationId: string;
let myAutomationId: string;

const manualAutomation = (name: string) => ({ name, trigger: { type: "manual" } });

beforeAll(async () => {
  server = await startRouteServer();
  mine = await createProjectFixture("Mine");
  theirs = await createProjectFixture("Theirs");
  myKey = await mine.keyFor(["automations.read", "automations.write"]);
  theirKey = await theirs.keyFor(["automations.read", "automations.write"]);
  const created = await call(theirs.projectId, { key: theirKey }, "POST", "/automations", { name: "Their form", trigger: { type: "form", form: "contact" } });
  expect(created.status).toBe(201);
  theirAutomationId = created.body.id as string;
  const own = await call(mine.projectId, { key: myKey }, "POST", "/automations", manualAutomation("Mine"));
  expect(own.status).toBe(201);
  myAutomationId = own.body.id as string;
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function call(projectId: string, credentials: Credentials, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers = credentials && "cookie" in credentials ? credentials.headers : undefined;
  const as: ApiCredentials = credentials === null ? "anonymous" : "key" in credentials ? { key: credentials.key } : { cookie: credentials.cookie };
  return projectApi(server, { projectId }, as).call<Answer["body"]>(method, path, body, headers);
}

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

async function theirAutomation(): Promise<Json> {
  return (await call(theirs.projectId, { key: theirKey }, "GET", `/automations/${theirAutomationId}`)).body;
}

describe("credentials", () => {
  it("answers 401 without credentials and with a revoked key, on every route", async () => {
    const revoked = await createRevokedKey(mine.projectId, [...PERMISSIONS]);
    for (const route of ROUTES) {
      const path = route.path.replace(":id", myAutomationId);
      const anonymous = await call(mine.projectId, null, route.method, path, route.body);
      expect(anonymous.status, `${route.method} ${route.path}`).toBe(401);
      expect(anonymous.body).toEqual({ error: "authentication required", code: "unauthorized" });
      expect((await call(mine.projectId, { key: revoked }, route.method, path, route.body)).status, `revoked ${route.method} ${route.path}`).toBe(401);
    }
  });

  it("answers 403 to keys without the route's permission, automations.run included", async () => {
    const readOnly = await mine.keyFor(["automations.read"]);
    const writeOnly = await mine.keyFor(["automations.write"]);
    const others = await mine.keyFor(PERMISSIONS.filter((permission): permission is Permission => !permission.startsWith("automations.")));
    const runOnly = await mine.keyFor(["automations.run"]);
    for (const route of ROUTES) {
      const path = route.path.replace(":id", myAutomationId);
      const label = `${route.method} ${route.path}`;
      for (const key of [others, runOnly, route.needs === "automations.read" ? writeOnly : readOnly]) {
        const answer = await call(mine.projectId, { key }, route.method, path, route.body);
        expect(answer.status, label).toBe(403);
        expect(answer.body.error).toContain(route.needs);
      }
    }
    // Nothing was changed by the refused calls.
    const listed = await call(mine.projectId, { key: myKey }, "GET", "/automations");
    expect(listed.body.data!.map((automation) => [automation.name, automation.version])).toEqual([["Mine", 1]]);
  });

  it("answers 404 project not found to another project's key and to a signed-in stranger", async () => {
    const stranger = await createTestUser("stranger");
    for (const route of ROUTES) {
      const path = route.path.replace(":id", myAutomationId);
      for (const credentials of [{ key: theirKey }, { cookie: stranger.cookie }, { cookie: theirs.owner.cookie }]) {
        const answer = await call(mine.projectId, credentials, route.method, path, route.body);
        expect(answer.status, `${route.method} ${route.path}`).toBe(404);
        expect(answer.body).toEqual({ error: "project not found", code: "not_found" });
      }
    }
  });
});

describe("isolation between projects", () => {
  it("never reads, changes or deletes another project's automation through any route", async () => {
    const before = await theirAutomation();
    for (const route of ROUTES.filter((candidate) => candidate.path.includes(":id"))) {
      const answer = await call(mine.projectId, { key: myKey }, route.method, route.path.replace(":id", theirAutomationId), route.body);
      expect(answer.status, route.method).toBe(404);
      expect(answer.body).toEqual({ error: "automation not found", code: "not_found" });
    }
    const listed = await call(mine.projectId, { key: myKey }, "GET", "/automations");
    expect(listed.body.data!.map((automation) => automation.id)).not.toContain(theirAutomationId);
    const exported = await call(mine.projectId, { key: myKey }, "GET", "/automations/export");
    expect(JSON.stringify(exported.body)).not.toContain("Their form");

    // Their form slug is theirs only: the same slug here is a different automation, and an import
    // naming their automation creates one in this project without touching theirs.
    expect((await call(mine.projectId, { key: myKey }, "POST", "/automations", { name: "My form", trigger: { type: "form", form: "contact" } })).status).toBe(201);
    const imported = await call(mine.projectId, { key: myKey }, "POST", "/automations/import", { automations: [{ name: "Their form", trigger: { type: "manual" } }] });
    expect(imported.body).toMatchObject({ created: 1, updated: 0 });
    expect(await theirAutomation()).toEqual(before);
  });
});

describe("dashboard sessions", () => {
  it("let members and admins of the workspace manage automations alike", async () => {
    const member = await createTestUser("member");
    const db = await getPlatformDb();
    await db.insert(memberships).values({ workspaceId: mine.workspaceId, userId: member.id, role: "member" });
    for (const [label, cookie] of [
      ["member", member.cookie],
      ["admin", mine.owner.cookie],
    ] as const) {
      const session = { cookie, headers: { origin: server.url } };
      const created = await call(mine.projectId, session, "POST", "/automations", manualAutomation(`By ${label}`));
      expect(created.status, label).toBe(201);
      const id = created.body.id as string;
      expect((await call(mine.projectId, session, "GET", `/automations/${id}`)).status, label).toBe(200);
      expect((await call(mine.projectId, session, "PATCH", `/automations/${id}`, { enabled: false })).body.enabled, label).toBe(false);
      expect((await call(mine.projectId, session, "GET", "/automations/export")).status, label).toBe(200);
      expect((await call(mine.projectId, session, "POST", "/automations/import", { automations: [manualAutomation(`Imported by ${label}`)] })).status, label).toBe(200);
      expect((await call(mine.projectId, session, "DELETE", `/automations/${id}`)).status, label).toBe(204);
    }
  });

  it("refuse cross-site changes (CSRF) and non-JSON bodies, and create nothing", async () => {
    const url = new URL(server.url);
    const sameHostOtherPort = `${url.protocol}//${url.hostname}:${Number(url.port) === 65535 ? 1 : Number(url.port) + 1}`;
    const cookie = mine.owner.cookie;
    const before = (await call(mine.projectId, { key: myKey }, "GET", "/automations")).body.data!.map((automation) => [automation.id, automation.version]);
    for (const origin of ["http://evil.example", sameHostOtherPort, "null"]) {
      for (const route of ROUTES.filter((candidate) => candidate.method !== "GET")) {
        const answer = await call(mine.projectId, { cookie, headers: { origin } }, route.method, route.path.replace(":id", myAutomationId), route.body);
        expect(answer.status, `${origin} ${route.method} ${route.path}`).toBe(403);
      }
    }
    const form = await fetch(`${server.url}/api/projects/${mine.projectId}/automations`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "text/plain" },
      body: JSON.stringify(manualAutomation("Form post")),
    });
    expect(form.status).toBe(415);
    const after = (await call(mine.projectId, { key: myKey }, "GET", "/automations")).body.data!.map((automation) => [automation.id, automation.version]);
    expect(after).toEqual(before);
  });

  it("leave API-key calls alone: a key is an explicit credential, whatever the Origin", async () => {
    const answer = await call(
      mine.projectId,
      { cookie: "", headers: { authorization: `Bearer ${myKey}`, origin: "http://evil.example", "sec-fetch-site": "cross-site" } },
      "POST",
      "/automations",
      manualAutomation("By key"),
    );
    expect(answer.status).toBe(201);
  });
});
