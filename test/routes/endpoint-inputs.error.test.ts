import { describe, expect } from "vitest";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/** Calls that break an endpoint's typed input, and input specs that cannot be saved. */
const test = routeTest.extend("api", { scope: "file" }, async ({ server, project }) => {
  const api = projectApi(server, project, { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update"]) });
  const definitions = [
    {
      name: "Signup",
      method: "POST",
      slug: "signup",
      input: {
        query: { page: { type: "integer", min: 1 }, dryRun: { type: "boolean" } },
        body: { email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$" }, plan: { type: "string", enum: ["free", "pro"] }, tags: { type: "array", max: 2 } },
      },
      // A step that must not run for a refused call: its log shows no steps.
      steps: [{ type: "transform", name: "seen", expression: "`true`" }],
      response: { body: '{"ok": true}' },
    },
  ];
  for (const definition of definitions) {
    const answer = await api.call("POST", "/endpoints", definition);
    expect(answer.status, answer.text).toBe(201);
  }
  // A valid call first: its log creates the project's log collection, which can take longer than a drain waits.
  const valid = await api.invoke("signup", { method: "POST", headers: { "content-type": "application/json" }, body: '{"email": "a@b"}' });
  expect(valid.status).toBe(200);
  const validId = valid.headers.get("x-execution-id");
  for (let attempt = 0; attempt < 10; attempt++) {
    await server.drain();
    if ((await api.call("GET", `/executions/${validId}`)).status === 200) break;
  }
  return api;
});

async function post(api: ProjectApi, body: string, search = ""): Promise<Response> {
  return api.invoke("signup", { method: "POST", headers: { "content-type": "application/json" }, body }, search);
}

describe("calls that break the input", () => {
  // Its fixture and log writes are slow on a loaded machine.
  test("answer 400 with every issue, exactly the invocation error shape, before any step runs", { timeout: 90_000 }, async ({ api, server }) => {
    const response = await post(api, JSON.stringify({ email: "not-an-email", plan: "gold", tags: [1, 2, 3] }), "?page=0&dryRun=maybe");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const answer = (await response.json()) as { error: string; issues: Array<{ path: string; message: string }> };
    expect(Object.keys(answer)).toEqual(["error", "issues"]);
    expect(answer.error).toBe("invalid request");
    // Query issues come first, then the body's (in the order the stored definition lists its fields).
    expect(answer.issues.slice(0, 2)).toEqual([
      { path: "query.page", message: "must be at least 1" },
      { path: "query.dryRun", message: "must be true or false" },
    ]);
    expect(answer.issues.slice(2)).toEqual(
      expect.arrayContaining([
        { path: "body.email", message: "must match the pattern ^[^@]+@[^@]+$" },
        { path: "body.plan", message: 'must be one of "free", "pro"' },
        { path: "body.tags", message: "must have at most 2 items" },
      ]),
    );
    expect(answer.issues).toHaveLength(5);

    const executionId = response.headers.get("x-execution-id");
    expect(executionId).toMatch(/^exe_/);
    await server.drain();
    const entry = await api.call(`GET`, `/executions/${executionId}`);
    expect(entry.status, entry.text).toBe(200);
    expect(entry.body).toMatchObject({ outcome: "rejected", httpStatus: 400, steps: [], source: "endpoint", slug: "signup" });
    expect(entry.body.error).toContain("body.email must match the pattern");
    const rejected = await api.call<{ data: Array<{ id: string; outcome: string }> }>("GET", "/executions?outcome=rejected");
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.data.map((item) => item.id)).toContain(executionId);
    expect(rejected.body.data.every((item) => item.outcome === "rejected")).toBe(true);
  });

  test("a missing body and a query number that is not a number are issues, not a NaN", async ({ api }) => {
    const missing = await api.invoke("signup", { method: "POST" }, "?page=two");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: "invalid request",
      issues: [
        { path: "query.page", message: "must be a whole number" },
        { path: "body.email", message: "is required" },
      ],
    });
  });

  test("a body that is not an object is one issue at body", async ({ api }) => {
    for (const body of ["[1,2]", '"text"', "42", "null"]) {
      const response = await post(api, body);
      expect(response.status, body).toBe(400);
      expect(await response.json(), body).toEqual({ error: "invalid request", issues: [{ path: "body", message: "must be a JSON object" }] });
    }
  });

  test("malformed JSON and oversized bodies keep their own answers", async ({ api }) => {
    const malformed = await post(api, "{not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "request body is not valid JSON" });
    const large = await post(api, JSON.stringify({ email: "a@b", pad: "x".repeat(110 * 1024) }));
    expect(large.status).toBe(413);
  });

  test("a test run with a sample that breaks the input answers the call's 400, and no step runs", async ({ api }) => {
    const endpoint = { method: "POST", input: { body: { email: { type: "string", required: true } } }, steps: [{ type: "transform", name: "x", expression: "`1`" }] };
    const ran = await api.call<{ outcome: string; steps: unknown[]; response: { status: number; body: unknown } }>("POST", "/endpoints/test-run", { endpoint, body: {} });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body).toMatchObject({
      outcome: "rejected",
      steps: [],
      response: { status: 400, body: { error: "invalid request", issues: [{ path: "body.email", message: "is required" }] } },
    });
  });
});

describe("input specs that cannot be saved", () => {
  test("answer 422 naming each problem by its path", async ({ api }) => {
    const answer = await api.call("POST", "/endpoints", {
      name: "Bad",
      method: "POST",
      slug: "bad",
      input: {
        query: { page: { type: "date" }, filter: { type: "object" } },
        body: {
          age: { type: "integer", min: 9, max: 3 },
          plan: { type: "string", enum: ["a", 1] },
          email: { type: "string", pattern: "([a-z]" },
          flag: { type: "boolean", max: 1 },
        },
        headers: {},
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe("validation_failed");
    const paths = (answer.body.issues ?? []).map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "input.query.page.type",
        "input.query.filter.type",
        "input.body.age.max",
        "input.body.plan.enum.1",
        "input.body.email.pattern",
        "input.body.flag.max",
        "input",
      ]),
    );
  });

  test("a PATCH that breaks the input is refused and the stored input stays", async ({ api }) => {
    const list = await api.call<{ data: Array<{ id: string; slug: string }> }>("GET", "/endpoints");
    const signup = list.body.data.find((endpoint) => endpoint.slug === "signup");
    expect(signup).toBeDefined();
    const answer = await api.call("PATCH", `/endpoints/${signup!.id}`, { input: { body: { email: { type: "string", min: -1 } } } });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([expect.objectContaining({ path: "input.body.email.min" })]);
    expect((await post(api, "{}")).status).toBe(400);
  });
});
