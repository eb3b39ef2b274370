import { describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { createProjectFixture } from "@/test/fixtures";
import type { RouteServer } from "@/test/http-harness";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { chunkedBody, ndjson, postImport } from "@/test/support/records-import";
import { routeTest } from "@/test/support/route-test";

/**
 * Security cases of `POST /records/:schema/import` (the generic sweep of every project route, the
 * import included, is in project-routes.security.test.ts): the permission, isolation between
 * projects, and lines that try to set what a single create may not.
 */
const ALL: Permission[] = ["schemas.write", "records.read", "records.create"];
const POSTS = {
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "meta", type: "json" },
  ],
};

async function projectWithPosts(server: RouteServer, name: string) {
  const fixture = await createProjectFixture(name);
  const key = await fixture.keyFor(ALL);
  const api = projectApi(server, fixture, { key });
  expect((await api.call("POST", "/schemas", POSTS)).status).toBe(201);
  return { ...fixture, key, api };
}

const it = routeTest
  .extend("mine", { scope: "file" }, ({ server }) => projectWithPosts(server, "Mine"))
  .extend("theirs", { scope: "file" }, ({ server }) => projectWithPosts(server, "Theirs"));

async function countPosts(project: { api: ProjectApi }): Promise<number> {
  return (await project.api.call<{ meta: { total: number } }>("GET", "/records/posts?perPage=1")).body.meta.total;
}

describe("who may import", () => {
  it("answers 403 to a key without records.create, and imports nothing", async ({ server, mine }) => {
    for (const permissions of [["records.read", "records.update", "records.delete"], ["endpoints.invoke"]] as Permission[][]) {
      const key = await mine.keyFor(permissions);
      const answer = await postImport(server.url, mine.projectId, key, "posts", ndjson([{ title: "sneaky" }]));
      expect(answer.status, permissions.join()).toBe(403);
      expect(answer.body.error).toContain("records.create");
    }
    expect(await countPosts(mine)).toBe(0);
  });

  it("answers 401 without a key or with an unknown one", async ({ server, mine }) => {
    const anonymous = await fetch(`${server.url}/api/projects/${mine.projectId}/records/posts/import`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: chunkedBody(ndjson([{ title: "anonymous" }])),
      duplex: "half",
    } as RequestInit);
    expect(anonymous.status).toBe(401);
    expect((await postImport(server.url, mine.projectId, "fpk_notarealkey", "posts", ndjson([{ title: "x" }]))).status).toBe(401);
    expect(await countPosts(mine)).toBe(0);
  });

  it("answers 404 to another project's key, revealing nothing, and writes nothing there", async ({ server, mine, theirs }) => {
    const answer = await postImport(server.url, theirs.projectId, mine.key, "posts", ndjson([{ title: "into theirs" }]));
    expect(answer).toEqual({ status: 404, body: { error: "project not found", code: "not_found" } });
    const unknownProject = await postImport(server.url, "prj_doesnotexist", mine.key, "posts", ndjson([{ title: "nowhere" }]));
    expect(unknownProject).toEqual({ status: 404, body: { error: "project not found", code: "not_found" } });
    expect(await countPosts(theirs)).toBe(0);
  });
});

describe("what a line may hold", () => {
  it("refuses operator keys, dotted keys, __proto__ and system fields, line by line, as a single create does", async ({ server, mine }) => {
    const answer = await postImport(
      server.url,
      mine.projectId,
      mine.key,
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
    const records = (await mine.api.call<{ data: Array<Record<string, unknown>> }>("GET", "/records/posts")).body.data;
    expect(records.map((record) => record.title)).toEqual(["ok"]);
    expect(records[0]!.id).toMatch(/^rec_/);
  });

  it("does not answer driver or internal text for a line", async ({ server, mine }) => {
    const answer = await postImport(server.url, mine.projectId, mine.key, "posts", '{"title": "\\u0000 nul"}\n{"title": "\\ud800 half"}\n');
    expect(answer.status).toBe(200);
    const messages = answer.body.failed!.flatMap((failure) => failure.issues.map((issue) => issue.message)).join(" ");
    expect(answer.body.failedCount).toBe(2);
    expect(messages).not.toMatch(/postgres|pglite|jsonb|SQL|stack|at Object/i);
  });
});
