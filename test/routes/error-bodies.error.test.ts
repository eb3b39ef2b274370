import { afterEach, describe, expect, vi } from "vitest";
import { withEndUserRoute } from "@/lib/http/with-end-user-route";
import { withProjectAuth } from "@/lib/http/with-project-auth";
import { log } from "@/lib/log";
import { describeInProcess } from "@/test/support/in-process-only";
import { externalRouteTest } from "@/test/support/route-test";

/**
 * Error bodies (issue 12, item 3): the platform's own APIs — management, records, end-user auth —
 * answer `{"error", "code", "issues"?}`, while custom endpoint calls keep the specification's exact
 * bodies, without a code. A 5xx is logged once, with the request id its answer carries.
 */
const it = externalRouteTest
  /** A key for the schemas, records and endpoints APIs. */
  .extend("key", { scope: "file" }, ({ project }) => project.keyFor(["schemas.read", "schemas.write", "records.read", "records.create", "endpoints.read", "endpoints.create"]))
  /** The client calling with `key`, on a project given a `notes` collection and a `members` auth schema before the first test. */
  .extend("api", { scope: "file", auto: true }, async ({ ownerApi, key }) => {
    const api = ownerApi.with({ credentials: { key } });
    for (const definition of [
      { name: "notes", kind: "collection", fields: [{ name: "title", type: "string", required: true }] },
      { name: "members", kind: "auth", fields: [] },
    ]) {
      expect((await api.manage("/schemas", { method: "POST", body: JSON.stringify(definition) })).status).toBe(201);
    }
    return api;
  });

afterEach(() => {
  vi.restoreAllMocks();
});

async function bodyOf(response: Response): Promise<{ text: string; json: Record<string, unknown> }> {
  const text = await response.text();
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

describe("error bodies with a code", () => {
  it("a management route answers error, code and issues, in that order", async ({ api }) => {
    const response = await api.manage("/schemas", { method: "POST", body: JSON.stringify({ name: "Bad Name", kind: "collection", fields: [] }) });
    expect(response.status).toBe(422);
    const { json } = await bodyOf(response);
    expect(Object.keys(json)).toEqual(["error", "code", "issues"]);
    expect(json).toMatchObject({ error: "invalid schema definition", code: "validation_failed", issues: [{ path: "name" }] });

    const missing = await api.manage("/endpoints/ep_00000000000000000000000000");
    expect(missing.status).toBe(404);
    expect((await bodyOf(missing)).json).toEqual({ error: "endpoint not found", code: "not_found" });
  });

  it("a records route answers with the code and the issues", async ({ api }) => {
    const unknown = await api.manage("/records/nothing");
    expect(unknown.status).toBe(404);
    expect((await bodyOf(unknown)).json).toMatchObject({ code: "not_found" });

    const invalid = await api.manage("/records/notes", { method: "POST", body: JSON.stringify({}) });
    expect(invalid.status).toBe(422);
    expect((await bodyOf(invalid)).json).toMatchObject({ code: "validation_failed", issues: [{ path: "title" }] });
  });

  it("an end-user route answers with the code", async ({ api }) => {
    const response = await api.with({ credentials: "anonymous" }).fetch("/auth/nobody/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.test", password: "x" }),
    });
    expect(response.status).toBe(404);
    expect((await bodyOf(response)).json).toEqual({ error: "auth schema not found", code: "not_found" });
  });

  it("an invocation keeps the specification's bodies, byte for byte and without a code", async ({ api }) => {
    const created = await api.manage("/endpoints", {
      method: "POST",
      body: JSON.stringify({ name: "Keyed", method: "GET", slug: "keyed", auth: "api_key", steps: [], response: { body: "{}" } }),
    });
    expect(created.status).toBe(201);
    const unknown = await api.invoke("nothing-here");
    expect(unknown.status).toBe(404);
    expect((await bodyOf(unknown)).text).toBe('{"error":"not found"}');

    const anonymous = await api.invoke("keyed");
    expect(anonymous.status).toBe(401);
    const { json } = await bodyOf(anonymous);
    expect(Object.keys(json)).toEqual(["error"]);
  });
});

describeInProcess("spies on this process's log and calls route wrappers in it", "5xx answers are logged once, with the request id", () => {
  const failure = () => {
    throw new Error("the disk is on fire");
  };

  it("a management route: one log line, its id in the answer, nothing internal in the body", async ({ project, key }) => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const handler = withProjectAuth(async () => failure(), { permission: "schemas.read" });
    const request = new Request(`http://localhost/api/projects/${project.projectId}/schemas`, { headers: { authorization: `Bearer ${key}` } });
    const response = await handler(request, { params: Promise.resolve({ projectId: project.projectId }) });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "internal error", code: "internal" });
    expect(errors).toHaveBeenCalledTimes(1);
    const [message, fields] = errors.mock.calls[0]!;
    expect(message).toBe("request failed");
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_[0-9a-z]{26}$/);
    expect(fields).toMatchObject({ requestId, method: "GET", route: `/api/projects/${project.projectId}/schemas`, code: "internal" });
    expect(String((fields as { error: unknown }).error)).toContain("the disk is on fire");
  });

  it("an end-user route keeps the id a proxy in front gave the request, and refuses a malformed one", async ({ project }) => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const handler = withEndUserRoute(async () => failure());
    const url = `http://localhost/api/projects/${project.projectId}/auth/members/me`;
    const params = { params: Promise.resolve({ projectId: project.projectId, schema: "members" }) };

    const given = await handler(new Request(url, { headers: { "x-request-id": "edge-7f3a.1" } }), params);
    expect(given.status).toBe(500);
    expect(await given.json()).toEqual({ error: "internal error", code: "internal" });
    expect(given.headers.get("x-request-id")).toBe("edge-7f3a.1");

    const forged = await handler(new Request(url, { headers: { "x-request-id": 'x" level="info' } }), params);
    expect(forged.headers.get("x-request-id")).toMatch(/^req_/);

    expect(errors).toHaveBeenCalledTimes(2);
    expect(errors.mock.calls.map(([, fields]) => (fields as { requestId: string }).requestId)).toEqual(["edge-7f3a.1", forged.headers.get("x-request-id")]);
  });

  it("4xx answers are not logged and carry no request id", async ({ api }) => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const response = await api.manage("/records/nothing");
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBeNull();
    expect(errors).not.toHaveBeenCalled();
  });
});
