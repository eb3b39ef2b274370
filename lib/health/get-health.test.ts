import { afterAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getHealth } from "./get-health";
import { GET } from "@/app/api/health/route";

afterAll(closePlatformDb);

describe("health", () => {
  it("names the backends in use and their state, and no secrets", async () => {
    const report = await getHealth();
    expect(report.status).toBe("ok");
    expect(report.backends.platformDb).toMatchObject({ kind: process.env.DATABASE_URL ? "postgres" : "pglite", state: "up" });
    expect(report.backends.kv).toMatchObject({ kind: process.env.REDIS_URL ? "redis" : "memory", state: "up" });
    expect(report.backends.mail).toMatchObject({ kind: "local" });
    expect(report.automations).toMatchObject(process.env.REDIS_URL ? { queue: "bullmq", durable: true } : { queue: "in-process", durable: false });
    const response = await GET();
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toMatch(/postgres:\/\/|redis:\/\//);
  });
});
