import { inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";
import { createApiKey } from "./create-api-key";
import { authenticateApiKey } from "./authenticate-api-key";
import { createProjectFixture } from "@/test/fixtures";

async function lastUsed(keyIds: string[]): Promise<Map<string, Date | null>> {
  const db = await getPlatformDb();
  const rows = await db.select({ id: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(inArray(apiKeys.id, keyIds));
  return new Map(rows.map((row) => [row.id, row.lastUsedAt]));
}

describe("recording API key use", () => {
  it("records the keys used within a second in one statement, at most once a minute per key", async () => {
    const { projectId } = await createProjectFixture("Key use");
    const keys = await Promise.all([1, 2, 3].map((n) => createApiKey({ projectId, input: { name: `key ${n}`, permissions: ["records.read"] } })));
    const ids = keys.map((key) => key.id);
    for (const key of keys) expect(await authenticateApiKey(key.key)).toMatchObject({ projectId });

    await settleAfterResponseWork();
    const first = await lastUsed(ids);
    const times = ids.map((id) => first.get(id)?.getTime());
    expect(times.every((time) => typeof time === "number")).toBe(true);
    // One UPDATE wrote all three: they carry the same instant.
    expect(new Set(times).size).toBe(1);

    // Used again within the minute: nothing more is written.
    for (const key of keys) await authenticateApiKey(key.key);
    await settleAfterResponseWork();
    expect((await lastUsed(ids)).get(ids[0]!)?.getTime()).toBe(times[0]);
  });

  it("writes gathered uses a second later without being asked", async () => {
    const { projectId } = await createProjectFixture("Key use timer");
    const key = await createApiKey({ projectId, input: { name: "timer", permissions: ["records.read"] } });
    await authenticateApiKey(key.key);
    await vi.waitFor(async () => expect((await lastUsed([key.id])).get(key.id)).toBeInstanceOf(Date), { timeout: 5_000, interval: 100 });
  });
});
