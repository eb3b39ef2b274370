import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { authenticateApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
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

function apiKeysUrl(suffix = ""): string {
  return `${server.url}/api/projects/${fixture.projectId}/api-keys${suffix}`;
}

describe("API keys (dashboard session)", () => {
  it("creates a key shown once, lists it by prefix and last characters, and revokes it at once", async () => {
    const created = await fetch(apiKeysUrl(), {
      method: "POST",
      headers: { cookie: fixture.owner.cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "CI deploy", permissions: ["endpoints.read", "endpoints.invoke", "endpoints.read"] }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const key = (await created.json()) as { id: string; key: string; prefix: string; lastFour: string; permissions: string[] };
    expect(key.key).toMatch(/^fpk_[0-9A-Za-z]{38}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);
    expect(key.key.endsWith(key.lastFour)).toBe(true);
    expect(key.permissions).toEqual(["endpoints.read", "endpoints.invoke"]);
    expect(key.id).toMatch(/^key_/);

    const listed = await fetch(apiKeysUrl(), { headers: { cookie: fixture.owner.cookie } });
    expect(listed.status).toBe(200);
    const { data } = (await listed.json()) as { data: Array<Record<string, unknown>> };
    const row = data.find((entry) => entry.id === key.id);
    expect(row).toMatchObject({ name: "CI deploy", prefix: key.prefix, lastFour: key.lastFour, revokedAt: null });
    expect(JSON.stringify(data)).not.toContain(key.key);
    expect(row).not.toHaveProperty("keyHash");

    // The key works against the project's API, and records when it was used.
    const project = await fetch(`${server.url}/api/projects/${fixture.projectId}`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(project.status).toBe(200);
    expect(await project.json()).toMatchObject({ id: fixture.projectId, database: { kind: "local", hint: null } });

    const revoked = await fetch(apiKeysUrl(`/${key.id}`), { method: "DELETE", headers: { cookie: fixture.owner.cookie } });
    expect(revoked.status).toBe(204);
    expect(await authenticateApiKey(key.key)).toBeNull();
    const after = await fetch(`${server.url}/api/projects/${fixture.projectId}`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(after.status).toBe(401);

    const relisted = (await (await fetch(apiKeysUrl(), { headers: { cookie: fixture.owner.cookie } })).json()) as { data: Array<{ id: string; revokedAt: string | null; lastUsedAt: string | null }> };
    const revokedRow = relisted.data.find((entry) => entry.id === key.id);
    expect(revokedRow?.revokedAt).not.toBeNull();
    expect(revokedRow?.lastUsedAt).not.toBeNull();
  });
});
