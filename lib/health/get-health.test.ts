import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { declareSocketIpServer, NO_CLIENT_IP_WARNING } from "@/lib/http/client-ip";
import { closePlatformDb, migratePlatformDb } from "@/lib/platform-db/client";
import { getHealth } from "./get-health";
import { GET } from "@/app/api/health/route";

// As the app does before it serves: on a loaded machine, opening and migrating a fresh embedded database
// inside the first probe took longer than the probe's 2 s, and the report said "degraded".
beforeAll(migratePlatformDb);
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

// This file serves no HTTP itself: as under `next start`, no request here carries a socket address.
describe("health: the client IP for rate limits", () => {
  it("says plainly when there is no trustworthy client IP, without failing the check", async () => {
    const body = (await (await GET()).json()) as { status: string; clientIp: unknown };
    expect(body.status).toBe("ok");
    expect(body.clientIp).toEqual({ source: "none", warning: NO_CLIENT_IP_WARNING });
  });

  it("names the header TRUSTED_PROXY chose, and the socket address under our own server", async () => {
    const saved = process.env.TRUSTED_PROXY;
    process.env.TRUSTED_PROXY = "x-real-ip";
    resetConfigForTests();
    try {
      expect((await getHealth()).clientIp).toEqual({ source: "trusted-proxy", header: "x-real-ip" });
    } finally {
      if (saved === undefined) delete process.env.TRUSTED_PROXY;
      else process.env.TRUSTED_PROXY = saved;
      resetConfigForTests();
    }
    declareSocketIpServer();
    expect((await getHealth()).clientIp).toEqual({ source: "socket" });
  });
});
