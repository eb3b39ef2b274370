import { describe, expect } from "vitest";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/** Typed inputs under hostile calls and definitions: pollution keys, huge values, slow patterns, leaks, other projects. */
const test = routeTest
  .extend("api", { scope: "file" }, async ({ server, project }) => {
    const api = projectApi(server, project, { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update"]) });
    const created = await api.call("POST", "/endpoints", {
      name: "Guarded",
      method: "POST",
      slug: "guarded",
      input: {
        query: { page: { type: "integer" }, tag: { type: "array", max: 5 } },
        body: { name: { type: "string", required: true, max: 20 }, items: { type: "array", max: 10 }, profile: { type: "object" } },
      },
      response: { body: '{"name": "{{body.name}}", "polluted": "{{body.polluted}}", "page": {{query.page}}}' },
    });
    expect(created.status, created.text).toBe(201);
    return api;
  })
  .extend("otherApi", { scope: "file" }, async ({ server }) => {
    const other = await createProjectFixture("Other project");
    const api = projectApi(server, other, { key: await other.keyFor(["endpoints.read", "endpoints.create"]) });
    const created = await api.call("POST", "/endpoints", { name: "Guarded", method: "POST", slug: "guarded", response: { body: '{"free": true}' } });
    expect(created.status, created.text).toBe(201);
    return api;
  });

function post(api: ProjectApi, body: string, search = ""): Promise<Response> {
  return api.invoke("guarded", { method: "POST", headers: { "content-type": "application/json" }, body }, search);
}

describe("typed inputs under attack", () => {
  test("another project's endpoint of the same slug is not affected by this project's input", async ({ api, otherApi }) => {
    expect((await post(api, "{}")).status).toBe(400);
    const other = await post(otherApi, "{}", "?page=not-a-number");
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual({ free: true });
  });

  test("__proto__ and constructor keys in body and query pollute nothing and are not checked fields", async ({ api }) => {
    const body = '{"name": "Ann", "__proto__": {"polluted": "yes", "name": 5}, "constructor": {"prototype": {"polluted": "yes"}}}';
    const response = await post(api, body, "?__proto__=1&constructor=x&page=3");
    expect(response.status, await response.clone().text()).toBe(200);
    // The placeholder stays unresolved: the body has no `polluted`, own or inherited.
    expect(await response.json()).toEqual({ name: "Ann", polluted: "{{body.polluted}}", page: 3 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a polluted body cannot satisfy a required field through the prototype", async ({ api }) => {
    const response = await post(api, '{"__proto__": {"name": "Ann"}}');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid request", issues: [{ path: "body.name", message: "is required" }] });
  });

  test("huge arrays and many repeated keys are refused quickly, with one issue each", async ({ api }) => {
    const items = Array.from({ length: 20_000 }, () => 1);
    const started = performance.now();
    const response = await post(api, JSON.stringify({ name: "Ann", items }), `?${Array.from({ length: 2_000 }, () => "tag=x").join("&")}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid request",
      issues: [
        { path: "query.tag", message: "must have at most 5 items" },
        { path: "body.items", message: "must have at most 10 items" },
      ],
    });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("issues never echo the caller's values, secrets or internals", async ({ api }) => {
    const secretish = "sk_live_SUPERSECRET_value";
    const response = await post(api, JSON.stringify({ name: `${secretish}${"x".repeat(30)}`, profile: secretish, items: secretish }), `?page=${secretish}`);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain("SUPERSECRET");
    expect(text).not.toMatch(/stack|at \/|node_modules|Error:/);
    expect(JSON.parse(text)).toEqual({
      error: "invalid request",
      issues: [
        { path: "query.page", message: "must be a whole number" },
        { path: "body.name", message: "must be at most 20 characters long" },
        { path: "body.items", message: "must be a list" },
        { path: "body.profile", message: "must be an object" },
      ],
    });
  });

  test("a secret placeholder is not accepted in an input rule", async ({ api }) => {
    const answer = await api.call("POST", "/endpoints", {
      name: "Leaky",
      method: "POST",
      slug: "leaky",
      input: { body: { code: { type: "string", enum: ["{{secrets.API_KEY}}"] } } },
    });
    expect(answer.status).toBe(422);
    expect((answer.body.issues ?? []).some((issue) => issue.path.startsWith("input.body.code.enum"))).toBe(true);
  });

  test("a pattern that would backtrack catastrophically is refused at save, statically or by the probe", { timeout: 60_000 }, async ({ api }) => {
    for (const pattern of ["(a+)+$", "(a|aa)*b", "\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*x"]) {
      const answer = await api.call("POST", "/endpoints", { name: "Slow", method: "POST", slug: "slow", input: { body: { code: { type: "string", pattern } } } });
      expect(answer.status, pattern).toBe(422);
      expect(answer.body.issues, pattern).toEqual([expect.objectContaining({ path: "input.body.code.pattern" })]);
    }
  });
});
