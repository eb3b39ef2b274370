import { describe, expect } from "vitest";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest as it } from "@/test/support/route-test";

function post(api: ProjectApi, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return api.manage("/api-keys", { method: "POST", body, headers });
}

describe("API key creation refuses bad input", () => {
  it("names each problem with its path", async ({ ownerApi }) => {
    const response = await post(ownerApi, JSON.stringify({ name: "", permissions: ["endpoints.read", "root.everything"] }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; issues: Array<{ path: string; message: string }> };
    expect(body.error).toBe("invalid API key");
    expect(body.issues.map((issue) => issue.path).sort()).toEqual(["name", "permissions.1"]);
  });

  it("requires at least one permission", async ({ ownerApi }) => {
    const response = await post(ownerApi, JSON.stringify({ name: "empty", permissions: [] }));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { issues: Array<{ path: string }> }).issues[0]?.path).toBe("permissions");
  });

  it("answers 400 to a body that is not JSON", async ({ ownerApi }) => {
    const response = await post(ownerApi, "{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "request body is not valid JSON", code: "bad_request" });
  });

  it("answers 413 to an oversized body", async ({ ownerApi }) => {
    const response = await post(ownerApi, JSON.stringify({ name: "x".repeat(1_100_000), permissions: ["endpoints.read"] }));
    expect(response.status).toBe(413);
  });

  it("answers 404 when revoking a key that does not exist", async ({ ownerApi }) => {
    const response = await ownerApi.manage("/api-keys/key_unknown", { method: "DELETE" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "API key not found", code: "not_found" });
  });

  it("refuses API keys on key management, even with every permission", async ({ ownerApi, project }) => {
    const key = await project.keyFor(["endpoints.read", "endpoints.create", "schemas.write"]);
    const response = await post(ownerApi, JSON.stringify({ name: "escalate", permissions: ["records.delete"] }), { cookie: "", authorization: `Bearer ${key}` });
    expect(response.status).toBe(403);
  });
});
