import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";

let server: RouteServer;
let fixture: ProjectFixture;

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture();
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

async function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/api/projects/${fixture.projectId}/api-keys`, {
    method: "POST",
    headers: { cookie: fixture.owner.cookie, "content-type": "application/json", ...headers },
    body,
  });
}

describe("API key creation refuses bad input", () => {
  it("names each problem with its path", async () => {
    const response = await post(JSON.stringify({ name: "", permissions: ["endpoints.read", "root.everything"] }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; issues: Array<{ path: string; message: string }> };
    expect(body.error).toBe("invalid API key");
    expect(body.issues.map((issue) => issue.path).sort()).toEqual(["name", "permissions.1"]);
  });

  it("requires at least one permission", async () => {
    const response = await post(JSON.stringify({ name: "empty", permissions: [] }));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { issues: Array<{ path: string }> }).issues[0]?.path).toBe("permissions");
  });

  it("answers 400 to a body that is not JSON", async () => {
    const response = await post("{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "request body is not valid JSON", code: "bad_request" });
  });

  it("answers 413 to an oversized body", async () => {
    const response = await post(JSON.stringify({ name: "x".repeat(1_100_000), permissions: ["endpoints.read"] }));
    expect(response.status).toBe(413);
  });

  it("answers 404 when revoking a key that does not exist", async () => {
    const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/api-keys/key_unknown`, { method: "DELETE", headers: { cookie: fixture.owner.cookie } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "API key not found", code: "not_found" });
  });

  it("refuses API keys on key management, even with every permission", async () => {
    const key = await fixture.keyFor(["endpoints.read", "endpoints.create", "schemas.write"]);
    const response = await post(JSON.stringify({ name: "escalate", permissions: ["records.delete"] }), { cookie: "", authorization: `Bearer ${key}` });
    expect(response.status).toBe(403);
  });
});
