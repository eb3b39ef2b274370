import { describe, expect } from "vitest";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import type { ProjectApi } from "@/test/support/project-api";
import { externalRouteTest } from "@/test/support/route-test";

const it = externalRouteTest
  /** The client with a key for the endpoints API, on a project with the ticket schemas. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    await createTicketSchemas(project.projectId);
    return ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update", "endpoints.delete"]) } });
  })
  /** `api` once the endpoints the invocation errors call exist. */
  .extend("invocationApi", { scope: "file" }, async ({ api }) => {
    const definitions = [
      { name: "Echo", method: "POST", slug: "echo", response: { body: '{"got": {{body}}}' } },
      {
        name: "Fails",
        method: "GET",
        slug: "fails",
        steps: [{ type: "create", schema: "tickets", values: { title: "{{query.title}}" } }],
        response: { body: "{}" },
      },
      { name: "Typo", method: "GET", slug: "typo", response: { body: '{"count": {{steps.nothing.length}}' } },
      { name: "Text", method: "GET", slug: "text", response: { contentType: "text/csv", body: "name\n{{query.name}}\n" } },
      { name: "Header", method: "GET", slug: "header", response: { headers: { "x-name": "{{query.name}}" }, body: "{}" } },
      { name: "Off", method: "GET", slug: "off", enabled: false, response: { body: "{}" } },
    ];
    for (const definition of definitions) {
      const response = await api.manage("/endpoints", { method: "POST", body: JSON.stringify(definition) });
      expect(response.status, await response.clone().text()).toBe(201);
    }
    return api;
  });

const base = { name: "Endpoint", method: "GET", slug: "valid-slug" };

async function issuesFor(api: ProjectApi, definition: unknown): Promise<Array<{ path: string; message: string }>> {
  const response = await api.manage("/endpoints", { method: "POST", body: JSON.stringify(definition) });
  expect(response.status, JSON.stringify(definition)).toBe(422);
  const body = (await response.json()) as { error: string; issues: Array<{ path: string; message: string }> };
  expect(body.error).toBe("invalid endpoint");
  return body.issues;
}

describe("saving an endpoint names each problem with its path (422)", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["slug characters", { slug: "Not Valid!" }, "slug"],
    ["slug length", { slug: "x".repeat(65) }, "slug"],
    ["method", { method: "TRACE" }, "method"],
    ["more than 20 steps", { steps: Array.from({ length: 21 }, () => ({ type: "transform", expression: "body" })) }, "steps"],
    ["unknown schema", { steps: [{ type: "query", schema: "nope" }] }, "steps.0.schema"],
    ["expand of a non-relation field", { steps: [{ type: "query", schema: "tickets", expand: ["title"] }] }, "steps.0.expand.0"],
    [
      "JMESPath that does not compile",
      {
        steps: [
          { type: "query", name: "q", schema: "tickets" },
          { type: "transform", expression: "steps.q[?status=='open'" },
        ],
      },
      "steps.1.expression",
    ],
    ["limit over 100", { steps: [{ type: "query", schema: "tickets", limit: 101 }] }, "steps.0.limit"],
    ["URL scheme other than http(s)", { steps: [{ type: "http", method: "GET", url: "file:///etc/passwd" }] }, "steps.0.url"],
    ["end_user without an auth schema", { auth: "end_user" }, "authSchema"],
    ["end_user with a schema that is not an auth schema", { auth: "end_user", authSchema: "tickets" }, "authSchema"],
    ["cache on a non-GET endpoint", { method: "POST", cacheSeconds: 60 }, "cacheSeconds"],
    ["cache on an API key endpoint", { auth: "api_key", cacheSeconds: 60 }, "cacheSeconds"],
    ["cache over an hour", { cacheSeconds: 3601 }, "cacheSeconds"],
    ["content type outside the list", { response: { contentType: "image/png" } }, "response.contentType"],
    ["set-cookie header", { response: { headers: { "Set-Cookie": "a=b" } } }, "response.headers.Set-Cookie"],
    ["SET-COOKIE header in capitals", { response: { headers: { "SET-COOKIE": "a=b" } } }, "response.headers.SET-COOKIE"],
    ["invalid header name", { response: { headers: { "bad header": "x" } } }, "response.headers.bad header"],
    ["unknown filter field", { steps: [{ type: "query", schema: "tickets", filters: "colour=red" }] }, "steps.0.filters"],
    ["unknown field in a create step", { method: "POST", steps: [{ type: "create", schema: "tickets", values: { colour: "red" } }] }, "steps.0.values"],
    [
      "duplicate output names",
      {
        steps: [
          { type: "transform", name: "x", expression: "body" },
          { type: "transform", name: "x", expression: "body" },
        ],
      },
      "steps.1.name",
    ],
    ["origin with a path", { allowedOrigins: ["https://shop.example/path"] }, "allowedOrigins.0"],
  ];
  for (const [title, change, path] of cases) {
    it(title, async ({ api }) => {
      const issues = await issuesFor(api, { ...base, ...change });
      expect(issues.map((issue) => issue.path)).toContain(path);
    });
  }

  it("refuses a second endpoint with the same method and slug (409)", async ({ api }) => {
    const first = await api.manage("/endpoints", { method: "POST", body: JSON.stringify({ ...base, slug: "taken" }) });
    expect(first.status).toBe(201);
    const second = await api.manage("/endpoints", { method: "POST", body: JSON.stringify({ ...base, slug: "taken", name: "Other" }) });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ issues: [{ path: "slug" }] });
    const otherMethod = await api.manage("/endpoints", { method: "POST", body: JSON.stringify({ ...base, slug: "taken", method: "POST" }) });
    expect(otherMethod.status).toBe(201);
  });

  it("validates a partial update against the merged definition", async ({ api }) => {
    const created = (await (await api.manage("/endpoints", { method: "POST", body: JSON.stringify({ ...base, slug: "patch-me" }) })).json()) as { id: string };
    const response = await api.manage(`/endpoints/${created.id}`, { method: "PATCH", body: JSON.stringify({ method: "POST", cacheSeconds: 10 }) });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { issues: Array<{ path: string }> }).issues.map((issue) => issue.path)).toContain("cacheSeconds");
    const unknownField = await api.manage(`/endpoints/${created.id}`, { method: "PATCH", body: JSON.stringify({ colour: "red" }) });
    expect(unknownField.status).toBe(422);
  });
});

describe("invocation errors", () => {
  it("answers 404 for an unknown slug, a wrong method, a disabled endpoint and an unknown project", async ({ invocationApi: api }) => {
    expect((await api.invoke("nope")).status).toBe(404);
    expect((await api.invoke("echo")).status).toBe(404);
    expect((await api.invoke("off")).status).toBe(404);
    expect((await api.with({ projectId: "prj_unknown" }).invoke("echo", { method: "POST", body: "{}" })).status).toBe(404);
    // Malformed percent-encoding names no endpoint: 404, not a server error.
    const malformed = await api.invoke("ec%E0%A4%A");
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toEqual({ error: "not found" });
  });

  it("answers 400 to a body that is not a JSON object", async ({ invocationApi: api }) => {
    for (const body of ["[1,2]", '"text"', "42", "{broken"]) {
      const response = await api.invoke("echo", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(response.status, body).toBe(400);
    }
    const empty = await api.invoke("echo", { method: "POST" });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ got: {} });
  });

  it("answers 413 to a body over 100 KB, also when streamed without a length", async ({ invocationApi: api }) => {
    const big = JSON.stringify({ text: "x".repeat(110 * 1024) });
    expect((await api.invoke("echo", { method: "POST", body: big })).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 12; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"text":"' + "y".repeat(10_000) : "y".repeat(10_000)));
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const streamed = await api.invoke("echo", { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("answers a failed step with 500, the execution id and no internals", async ({ server, invocationApi: api }) => {
    const response = await api.invoke("fails?title=");
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; executionId: string };
    expect(Object.keys(body).sort()).toEqual(["error", "executionId"]);
    expect(body.error).toBe("endpoint execution failed");
    const log = await server.afterWork(
      async () => {
        const response = await api.manage(`/executions/${body.executionId}`);
        return (response.status === 200 ? await response.json() : {}) as { outcome?: string; steps: Array<{ status: string; error: string }> };
      },
      (entry) => entry.outcome !== undefined,
    );
    expect(log.outcome).toBe("failed");
    expect(log.steps[0]?.status).toBe("failed");
    expect(log.steps[0]?.error).toContain("status");
  });

  it("serves a JSON template typo as a JSON string, never a 500", async ({ invocationApi: api }) => {
    const response = await api.invoke("typo");
    expect(response.status).toBe(200);
    expect(await response.json()).toBe('{"count": {{steps.nothing.length}}');
  });

  it("serves other content types verbatim", async ({ invocationApi: api }) => {
    const response = await api.invoke("text?name=Ann");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await response.text()).toBe("name\nAnn\n");
  });

  it("templates extra headers and refuses a value that would split the header", async ({ invocationApi: api }) => {
    const ok = await api.invoke("header?name=Ann");
    expect(ok.headers.get("x-name")).toBe("Ann");
    const split = await api.invoke(`header?name=${encodeURIComponent("Ann\r\nSet-Cookie: a=b")}`);
    expect(split.status).toBe(500);
    expect(split.headers.get("set-cookie")).toBeNull();
  });
});
