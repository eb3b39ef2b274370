import { describe, expect } from "vitest";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/** Endpoints with a typed input (docs/DESIGN.md "Typed endpoint inputs"): calls that respect it run as before. */
const test = routeTest.extend("api", { scope: "file" }, async ({ server, project }) => {
  const { projectApi } = await import("@/test/support/project-api");
  return projectApi(server, project, { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update"]) });
});

const SIGNUP_INPUT = {
  query: { page: { type: "integer", min: 1 }, dryRun: { type: "boolean" }, tag: { type: "array", max: 3 } },
  body: { email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$" }, tags: { type: "array" }, seats: { type: "number", min: 1 } },
};

async function createEndpoint(api: ProjectApi, definition: Record<string, unknown>): Promise<{ id: string; input: unknown }> {
  const answer = await api.call<{ id: string; input: unknown }>("POST", "/endpoints", definition);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe("typed endpoint inputs: calls that respect the input", () => {
  test("saves and reads back the input, and runs a valid call with converted query values", async ({ api }) => {
    const created = await createEndpoint(api, {
      name: "Signup",
      method: "POST",
      slug: "signup",
      input: SIGNUP_INPUT,
      response: { body: '{"page": {{query.page}}, "dryRun": {{query.dryRun}}, "tags": {{query.tag}}, "email": "{{body.email}}", "extra": "{{query.extra}}"}' },
    });
    expect(created.input).toEqual(SIGNUP_INPUT);
    expect((await api.call("GET", `/endpoints/${created.id}`)).body.input).toEqual(SIGNUP_INPUT);

    const response = await api.invoke(
      "signup",
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "ann@example.com", tags: ["a"], unknownField: 1 }) },
      "?page=2&dryRun=true&tag=x&tag=y&extra=kept",
    );
    expect(response.status).toBe(200);
    // Placeholders outside JSON strings insert values as JSON: the query's numbers and booleans arrive converted.
    expect(await response.json()).toEqual({ page: 2, dryRun: true, tags: ["x", "y"], email: "ann@example.com", extra: "kept" });
  });

  test("an endpoint without input, or with null, checks nothing", async ({ api }) => {
    await createEndpoint(api, { name: "Free", method: "POST", slug: "free", input: null, response: { body: '{"page": "{{query.page}}"}' } });
    const response = await api.invoke("free", { method: "POST", body: "[1,2]" }, "?page=abc");
    // Without a declared input the old rule stands: a body must be an object.
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "request body must be a JSON object" });
    const ok = await api.invoke("free", { method: "POST", body: "{}" }, "?page=abc");
    expect(await ok.json()).toEqual({ page: "abc" });
  });

  test("a GET endpoint checks its query but never a body", async ({ api }) => {
    await createEndpoint(api, {
      name: "List",
      method: "GET",
      slug: "list",
      input: { query: { limit: { type: "integer", min: 1, max: 50 } }, body: { never: { type: "string", required: true } } },
      response: { body: '{"limit": {{query.limit}}}' },
    });
    const response = await api.invoke("list", {}, "?limit=7");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ limit: 7 });
  });

  test("the input can be changed and removed, and the next call follows the new version", async ({ api }) => {
    const created = await createEndpoint(api, {
      name: "Versioned",
      method: "GET",
      slug: "versioned",
      input: { query: { n: { type: "integer", required: true } } },
      response: { body: '{"n": "{{query.n}}"}' },
    });
    expect((await api.invoke("versioned")).status).toBe(400);
    expect((await api.call("PATCH", `/endpoints/${created.id}`, { input: { query: { n: { type: "string" } } } })).status).toBe(200);
    expect(await (await api.invoke("versioned", {}, "?n=5")).json()).toEqual({ n: "5" });
    expect((await api.call("PATCH", `/endpoints/${created.id}`, { input: null })).status).toBe(200);
    expect((await api.invoke("versioned")).status).toBe(200);
  });

  test("export and import carry the input", async ({ api }) => {
    const exported = await api.call<{ endpoints: Array<{ slug: string; input: unknown }> }>("GET", "/endpoints/export");
    expect(exported.status, exported.text).toBe(200);
    const signup = exported.body.endpoints.find((endpoint) => endpoint.slug === "signup");
    expect(signup?.input).toEqual(SIGNUP_INPUT);
    const changed = { ...signup, input: { body: { email: { type: "string", required: true } } } };
    const dryRun = await api.call<{ changes: Array<{ action: string; changedFields?: string[] }> }>("POST", "/endpoints/import?dryRun=true", { endpoints: [changed] });
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body.changes[0]).toMatchObject({ action: "replace", changedFields: ["input"] });
  });

  test("save answers warnings for placeholders naming undeclared body fields, typed fields resolve", async ({ api }) => {
    const answer = await api.call<{ warnings: Array<{ path: string; placeholder: string }> }>("POST", "/endpoints", {
      name: "Lint",
      method: "POST",
      slug: "lint",
      input: { body: { email: { type: "string" } } },
      response: { body: '{"email": "{{body.email}}", "length": "{{body.email.length}}", "other": "{{body.nickname}}"}' },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.warnings).toEqual([expect.objectContaining({ path: "response.body", placeholder: "{{body.nickname}}" })]);
  });

  test("a test run checks the draft's input and converts the sample query", async ({ api }) => {
    const endpoint = {
      method: "POST",
      input: { query: { page: { type: "integer" } }, body: { email: { type: "string", required: true } } },
      response: { body: '{"page": {{query.page}}}' },
    };
    const ran = await api.call<{ outcome: string; response: { status: number; body: unknown } }>("POST", "/endpoints/test-run", {
      endpoint,
      query: { page: "4" },
      body: { email: "a@b" },
    });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body).toMatchObject({ outcome: "completed", response: { status: 200, body: { page: 4 } } });
  });
});
