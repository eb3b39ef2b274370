import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { chunkedBody, ndjson, postImport } from "@/test/support/records-import";

/**
 * Security cases of `POST /records/:schema/import` (the generic sweep of every project route, the
 * import included, is in project-routes.security.test.ts): the permission, isolation between
 * projects, and lines that try to set what a single create may not.
 */
const ALL: Permission[] = ["schemas.write", "records.read", "records.create"];
const POSTS = { name: "posts", kind: "collection", fields: [{ name: "title", type: "string" }, { name: "meta", type: "json" }] };

let server: RouteServer;
let mine: ProjectFixture;
let theirs: ProjectFixture;
let myKey: string;
let theirKey: string;

beforeAll(async () => {
  server = await startRouteServer();
  mine = await createProjectFixture("Mine");
  theirs = await createProjectFixture("Theirs");
  myKey = await mine.keyFor(ALL);
  theirKey = await theirs.keyFor(ALL);
  for (const [fixture, key] of [[mine, myKey], [theirs, theirKey]] as const) {
    const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/schemas`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(POSTS),
    });
    expect(response.status).toBe(201);
  }
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

async function countPosts(fixture: ProjectFixture, key: string): Promise<number> {
  const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/records/posts?perPage=1`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

describe("who may import", () => {
  it("answers 403 to a key without records.create, and imports nothing", async () => {
    for (const permissions of [["records.read", "records.update", "records.delete"], ["endpoints.invoke"]] as Permission[][]) {
      const key = await mine.keyFor(permissions);
      const answer = await postImport(server.url, mine.projectId, key, "posts", ndjson([{ title: "sneaky" }]));
      expect(answer.status, permissions.join()).toBe(403);
      expect(answer.body.error).toContain("records.create");
    }
    expect(await countPosts(mine, myKey)).toBe(0);
  });

  it("answers 401 without a key or with an unknown one", async () => {
    const anonymous = await fetch(`${server.url}/api/projects/${mine.projectId}/records/posts/import`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: chunkedBody(ndjson([{ title: "anonymous" }])),
      duplex: "half",
    } as RequestInit);
    expect(anonymous.status).toBe(401);
    expect((await postImport(server.url, mine.projectId, "fpk_notarealkey", "posts", ndjson([{ title: "x" }]))).status).toBe(401);
    expect(await countPosts(mine, myKey)).toBe(0);
  });

  it("answers 404 to another project's key, revealing nothing, and writes nothing there", async () => {
    const answer = await postImport(server.url, theirs.projectId, myKey, "posts", ndjson([{ title: "into theirs" }]));
    expect(answer).toEqual({ status: 404, body: { error: "project not found", code: "not_found" } });
    const unknownProject = await postImport(server.url, "prj_doesnotexist", myKey, "posts", ndjson([{ title: "nowhere" }]));
    expect(unknownProject).toEqual({ status: 404, body: { error: "project not found", code: "not_found" } });
    expect(await countPosts(theirs, theirKey)).toBe(0);
  });
});

describe("what a line may hold", () => {
  it("refuses operator keys, dotted keys, __proto__ and system fields, line by line, as a single create does", async () => {
    const answer = await postImport(
      server.url,
      mine.projectId,
      myKey,
      "posts",
      ndjson([
        '{"title": "ok", "meta": {"plain": true}}',
        '{"title": "op", "meta": {"$where": "sleep(1000)"}}',
        '{"title": "dotted", "meta": {"a.b": 1}}',
        '{"title": "proto", "__proto__": {"admin": true}}',
        '{"$set": {"title": "x"}}',
        '{"title": "mine", "id": "rec_chosen"}',
        '{"title": "stamped", "updatedAt": "2020-01-01T00:00:00Z"}',
        '{"title": "expanded", "expand": {}}',
      ]),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.imported).toBe(1);
    expect(answer.body.failed!.map((failure) => [failure.line, failure.issues.map((issue) => issue.path)])).toEqual([
      [2, ["meta.$where"]],
      [3, ["meta.a.b"]],
      [4, ["__proto__"]],
      [5, ["$set"]],
      [6, ["id"]],
      [7, ["updatedAt"]],
      [8, ["expand"]],
    ]);
    const listed = await fetch(`${server.url}/api/projects/${mine.projectId}/records/posts`, { headers: { authorization: `Bearer ${myKey}` } });
    const records = ((await listed.json()) as { data: Array<Record<string, unknown>> }).data;
    expect(records.map((record) => record.title)).toEqual(["ok"]);
    expect(records[0]!.id).toMatch(/^rec_/);
  });

  it("does not answer driver or internal text for a line", async () => {
    const answer = await postImport(server.url, mine.projectId, myKey, "posts", '{"title": "\\u0000 nul"}\n{"title": "\\ud800 half"}\n');
    expect(answer.status).toBe(200);
    const messages = answer.body.failed!.flatMap((failure) => failure.issues.map((issue) => issue.message)).join(" ");
    expect(answer.body.failedCount).toBe(2);
    expect(messages).not.toMatch(/postgres|pglite|jsonb|SQL|stack|at Object/i);
  });
});
