import { describe, expect } from "vitest";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { signEndUserToken } from "@/lib/end-users/end-user-token";
import { createProjectFixture } from "@/test/fixtures";
import { createTestRecord } from "@/test/endpoint-fixtures";
import type { ProjectApi } from "@/test/support/project-api";
import { externalRouteTest } from "@/test/support/route-test";

/**
 * Example 3 of the specification: a personal feed for a logged-in end user. The query is filtered
 * by {{user.id}}, so each caller sees only their own records; tokens of another auth schema or
 * project, expired or missing tokens are refused with 401.
 */
const PASSWORD = "correct horse battery";

/** Members and staff (auth schemas), posts with an owner, and the `my-feed` endpoint for members. */
async function createFeedProject(projectId: string): Promise<void> {
  const store = await getProjectRecordStore({ projectId });
  await createSchema({ projectId, store, definition: { name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] } });
  await createSchema({ projectId, store, definition: { name: "staff", kind: "auth", fields: [] } });
  const posts = {
    name: "posts",
    kind: "collection",
    fields: [
      { name: "title", type: "string", required: true },
      { name: "owner", type: "string", required: true },
    ],
  };
  await createSchema({ projectId, store, definition: posts });
  await createEndpoint({
    projectId,
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

async function registerAndLogin(api: ProjectApi, schema: string, email: string, nickname?: string): Promise<{ id: string; token: string }> {
  const registered = await api.call("POST", `/auth/${schema}/register`, { email, password: PASSWORD, ...(nickname ? { nickname } : {}) });
  expect(registered.status, registered.text).toBe(201);
  const login = await api.call<{ token: string; user: { id: string } }>("POST", `/auth/${schema}/login`, { email, password: PASSWORD });
  expect(login.status).toBe(200);
  return { id: login.body.user.id, token: login.body.token };
}

function feed(api: ProjectApi, token?: string): Promise<Response> {
  return api.invoke("my-feed", token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

const it = externalRouteTest
  /** The calls of end users: no dashboard credentials. */
  .extend("feedApi", { scope: "file" }, async ({ project, ownerApi }) => {
    await createFeedProject(project.projectId);
    return ownerApi.with({ credentials: "anonymous" });
  })
  .extend("otherFeedApi", { scope: "file" }, async ({ ownerApi }) => {
    const other = await createProjectFixture("Other feeds");
    await createFeedProject(other.projectId);
    return ownerApi.with({ projectId: other.projectId, credentials: "anonymous" });
  })
  /** Two members with posts of their own. */
  .extend("members", { scope: "file" }, async ({ project, feedApi }) => {
    const ann = await registerAndLogin(feedApi, "members", "ann@example.test", "annie");
    const bob = await registerAndLogin(feedApi, "members", "bob@example.test", "bobby");
    await createTestRecord(project.projectId, "posts", { title: "Ann's second", owner: ann.id });
    await createTestRecord(project.projectId, "posts", { title: "Ann's first", owner: ann.id });
    await createTestRecord(project.projectId, "posts", { title: "Bob's only", owner: bob.id });
    return { ann, bob };
  });

// Four sign-ups hash at production cost: the fixtures are built under the hook timeout, not the first test's.
it.beforeAll(({ members, otherFeedApi }) => void [members, otherFeedApi]);

describe("personal feed for a logged-in end user", () => {
  it("returns only the caller's records and exposes the profile without secrets", async ({ feedApi, members: { ann, bob } }) => {
    const response = await feed(feedApi, ann.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-limit")).toBe("120");
    const body = (await response.json()) as { for: string; email: string; titles: string[]; userKeys: string[] };
    expect(body).toMatchObject({ for: "annie", email: "ann@example.test", titles: ["Ann's first", "Ann's second"] });
    expect(body.userKeys).toContain("id");
    for (const key of body.userKeys) expect(key).not.toMatch(/password|token|epoch|^_/i);
    expect(((await (await feed(feedApi, bob.token)).json()) as { titles: string[] }).titles).toEqual(["Bob's only"]);
  });

  it("refuses missing, foreign, expired and tampered tokens with 401", async ({ project, feedApi, otherFeedApi, members: { ann, bob } }) => {
    const staff = await registerAndLogin(feedApi, "staff", "staff@example.test");
    const foreign = await registerAndLogin(otherFeedApi, "members", "ann@example.test", "other-annie");
    const expired = await signEndUserToken({ projectId: project.projectId, schema: "members", userId: ann.id, epoch: "x", now: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) });
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
      const response = await feed(feedApi, token);
      expect(response.status, label).toBe(401);
      expect(response.headers.get("www-authenticate"), label).toContain("Bearer");
    }
  });
});
