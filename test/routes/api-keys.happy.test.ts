import { describe, expect } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { projectApi } from "@/test/support/project-api";
import { routeTest as it } from "@/test/support/route-test";

describe("API keys (dashboard session)", () => {
  it("creates a key shown once, lists it by prefix and last characters, and revokes it at once", async ({ server, project, ownerApi }) => {
    const created = await ownerApi.manage("/api-keys", {
      method: "POST",
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

    const listed = await ownerApi.manage("/api-keys");
    expect(listed.status).toBe(200);
    const { data } = (await listed.json()) as { data: Array<Record<string, unknown>> };
    const row = data.find((entry) => entry.id === key.id);
    expect(row).toMatchObject({ name: "CI deploy", prefix: key.prefix, lastFour: key.lastFour, revokedAt: null });
    expect(JSON.stringify(data)).not.toContain(key.key);
    expect(row).not.toHaveProperty("keyHash");

    // The key works against the project's API, and records when it was used.
    const withKey = projectApi(server, project, { key: key.key });
    const read = await withKey.call("GET", "");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: project.projectId, database: { kind: "local", hint: null } });

    const revoked = await ownerApi.manage(`/api-keys/${key.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(204);
    expect(await authenticateApiKey(key.key)).toBeNull();
    const after = await withKey.call("GET", "");
    expect(after.status).toBe(401);

    // Uses are recorded in the background, a second's worth per statement; settling writes them at once.
    await settleAfterResponseWork();
    const relisted = (await (await ownerApi.manage("/api-keys")).json()) as { data: Array<{ id: string; revokedAt: string | null; lastUsedAt: string | null }> };
    const revokedRow = relisted.data.find((entry) => entry.id === key.id);
    expect(revokedRow?.revokedAt).not.toBeNull();
    expect(revokedRow?.lastUsedAt).not.toBeNull();
  });
});
