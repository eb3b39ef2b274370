import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { signEndUserToken } from "@/lib/end-users/end-user-token";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { createTestRecord } from "@/test/endpoint-fixtures";

/**
 * Example 3 of the specification: a personal feed for a logged-in end user. The query is filtered
 * by {{user.id}}, so each caller sees only their own records; tokens of another auth schema or
 * project, expired or missing tokens are refused with 401.
 */
let server: RouteServer;
let fixture: ProjectFixture;
let other: ProjectFixture;

const PASSWORD = "correct horse battery";

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture("Feeds");
  other = await createProjectFixture("Other feeds");
  for (const project of [fixture, other]) {
    const store = await getProjectRecordStore({ projectId: project.projectId });
    await createSchema({ projectId: project.projectId, store, definition: { name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] } });
    await createSchema({ projectId: project.projectId, store, definition: { name: "staff", kind: "auth", fields: [] } });
    await createSchema({
      projectId: project.projectId,
      store,
      definition: {
        name: "posts",
        kind: "collection",
        fields: [
          { name: "title", type: "string", required: true },
          { name: "owner", type: "string", required: true },
        ],
      },
    });
    await createEndpoint({
      projectId: project.projectId,
      input: {
        name: "My feed",
        method: "GET",
        slug: "my-feed",
        auth: "end_user",
        authSchema: "members",
        steps: [
          { type: "query", name: "posts", schema: "posts", filters: "owner={{user.id}}", sort: "title" },
          { type: "transform", name: "feed", expression: "{for: user.nickname, email: user.email, titles: steps.posts[].title, userKeys: keys(user)}" },
        ],
        response: { body: "{{steps.feed}}" },
      },
    });
  }
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

async function registerAndLogin(project: ProjectFixture, schema: string, email: string, nickname?: string): Promise<{ id: string; token: string }> {
  const base = `${server.url}/api/projects/${project.projectId}/auth/${schema}`;
  const registered = await fetch(`${base}/register`, { method: "POST", body: JSON.stringify({ email, password: PASSWORD, ...(nickname ? { nickname } : {}) }) });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const login = await fetch(`${base}/login`, { method: "POST", body: JSON.stringify({ email, password: PASSWORD }) });
  expect(login.status).toBe(200);
  const session = (await login.json()) as { token: string; user: { id: string } };
  return { id: session.user.id, token: session.token };
}

function feed(project: ProjectFixture, token?: string): Promise<Response> {
  return fetch(`${server.url}/api/projects/${project.projectId}/fn/my-feed`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

describe("personal feed for a logged-in end user", () => {
  let ann: { id: string; token: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    ann = await registerAndLogin(fixture, "members", "ann@example.test", "annie");
    bob = await registerAndLogin(fixture, "members", "bob@example.test", "bobby");
    await createTestRecord(fixture.projectId, "posts", { title: "Ann's second", owner: ann.id });
    await createTestRecord(fixture.projectId, "posts", { title: "Ann's first", owner: ann.id });
    await createTestRecord(fixture.projectId, "posts", { title: "Bob's only", owner: bob.id });
  });

  it("returns only the caller's records and exposes the profile without secrets", async () => {
    const response = await feed(fixture, ann.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-limit")).toBe("120");
    const body = (await response.json()) as { for: string; email: string; titles: string[]; userKeys: string[] };
    expect(body).toMatchObject({ for: "annie", email: "ann@example.test", titles: ["Ann's first", "Ann's second"] });
    expect(body.userKeys).toContain("id");
    for (const key of body.userKeys) expect(key).not.toMatch(/password|token|epoch|^_/i);
    expect(((await (await feed(fixture, bob.token)).json()) as { titles: string[] }).titles).toEqual(["Bob's only"]);
  });

  it("refuses missing, foreign, expired and tampered tokens with 401", async () => {
    const staff = await registerAndLogin(fixture, "staff", "staff@example.test");
    const foreign = await registerAndLogin(other, "members", "ann@example.test", "other-annie");
    const expired = await signEndUserToken({ projectId: fixture.projectId, schema: "members", userId: ann.id, epoch: "x", now: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) });
    const [header, payload, signature] = ann.token.split(".");
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), sub: bob.id })).toString("base64url")}.${signature}`;
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    for (const [label, token] of [
      ["missing", undefined],
      ["another auth schema", staff.token],
      ["another project", foreign.token],
      ["expired", expired.token],
      ["tampered", tampered],
      ["alg none", none],
      ["garbage", "not-a-token"],
    ] as const) {
      const response = await feed(fixture, token);
      expect(response.status, label).toBe(401);
      expect(response.headers.get("www-authenticate"), label).toContain("Bearer");
    }
  });
});
