import type { IncomingHttpHeaders } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";
import { describeClientIpSource, getClientIp, logClientIpSource, markSocketIp, NO_CLIENT_IP_WARNING, SOCKET_IP_HEADER } from "./client-ip";

const VARIABLES = [
  "VERCEL",
  "VERCEL_ENV",
  "TRUSTED_PROXY",
  "DEPLOY_TARGET",
  "DATABASE_URL",
  "REDIS_URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "ENCRYPTION_KEYS",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
] as const;
// Loosely typed: some type packages declare `VERCEL?: "1"` on ProcessEnv.
const env = process.env as Record<string, string | undefined>;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, env[name]]));

/** What a Vercel deployment sets (lib/config.ts refuses less); nothing here is connected to. */
const VERCEL_DEPLOYMENT = {
  VERCEL: "1",
  VERCEL_ENV: "production",
  DATABASE_URL: "postgres://flowpoint@db.example:5432/flowpoint",
  UPSTASH_REDIS_REST_URL: "https://eu1-example.upstash.io",
  UPSTASH_REDIS_REST_TOKEN: "token",
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}`,
  NEXTAUTH_SECRET: "secret",
  NEXTAUTH_URL: "https://flowpoint.example",
};

function useEnvironment(values: Partial<Record<(typeof VARIABLES)[number], string>>): void {
  for (const name of VARIABLES) {
    if (values[name] === undefined) delete env[name];
    else env[name] = values[name];
  }
  resetConfigForTests();
}

afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete env[name];
    else env[name] = saved[name];
  }
  resetConfigForTests();
});

/** A request as a route handler sees it; `socketAddress` as our Node servers mark it. */
function request(headers: Record<string, string>, socketAddress?: string): Request {
  const all: IncomingHttpHeaders = { ...headers };
  if (socketAddress !== undefined) markSocketIp(all, socketAddress);
  return new Request("http://flowpoint.example/api/projects/prj_1/fn/hello", { headers: all as Record<string, string> });
}

const spoofed = { "x-forwarded-for": "203.0.113.66", "x-vercel-forwarded-for": "203.0.113.67", "x-real-ip": "203.0.113.68" };

// First in the file: no request has been marked yet in this process, as under `next start`.
describe("client IP when the app runs as route handlers only (no socket address)", () => {
  it("reports that there is no trustworthy client IP, and does not take the caller's headers for one", () => {
    useEnvironment({});
    expect(describeClientIpSource()).toEqual({ source: "none", warning: NO_CLIENT_IP_WARNING });
    expect(getClientIp(request(spoofed))).toBe("unknown");
    expect(NO_CLIENT_IP_WARNING).toMatch(/TRUSTED_PROXY/);
    expect(NO_CLIENT_IP_WARNING).toMatch(/share one rate limit/);
  });

  it("says so at start-up as a warning, and names the source otherwise", () => {
    const lines: Array<[string, string]> = [];
    const logger = { info: (message: string) => lines.push(["info", message]), warn: (message: string) => lines.push(["warn", message]) };
    useEnvironment({});
    logClientIpSource(logger);
    useEnvironment(VERCEL_DEPLOYMENT);
    logClientIpSource(logger);
    useEnvironment({ TRUSTED_PROXY: "X-Real-IP" });
    logClientIpSource(logger);
    expect(lines).toEqual([
      ["warn", `client IP for rate limits: ${NO_CLIENT_IP_WARNING}`],
      ["info", "client IP for rate limits: the x-vercel-forwarded-for header"],
      ["info", "client IP for rate limits: the x-real-ip header"],
    ]);
  });
});

describe("client IP on Vercel (VERCEL=1)", () => {
  it("uses the address Vercel writes, without further settings", () => {
    useEnvironment(VERCEL_DEPLOYMENT);
    expect(describeClientIpSource()).toEqual({ source: "platform", platform: "vercel", header: "x-vercel-forwarded-for" });
    expect(getClientIp(request({ "x-vercel-forwarded-for": "203.0.113.7", "x-forwarded-for": "198.51.100.9" }))).toBe("203.0.113.7");
    // Vercel overwrites x-forwarded-for too; x-vercel-forwarded-for is only missing if something in between dropped it.
    expect(getRequestClientIp(request({ "x-forwarded-for": "2001:DB8::1" }))).toBe("2001:db8::1");
    expect(getClientIp(request({}))).toBe("unknown");
  });

  it("does not trust Vercel's headers under `vercel dev` (VERCEL_ENV=development): no edge overwrites them there", () => {
    useEnvironment({ VERCEL: "1", VERCEL_ENV: "development" });
    expect(getClientIp(request(spoofed, "127.0.0.1"))).toBe("127.0.0.1");
  });

  it("lets TRUSTED_PROXY name another header (a proxy of the operator's in front of Vercel)", () => {
    useEnvironment({ ...VERCEL_DEPLOYMENT, TRUSTED_PROXY: "cf-connecting-ip" });
    expect(describeClientIpSource()).toEqual({ source: "trusted-proxy", header: "cf-connecting-ip" });
    expect(getClientIp(request({ "cf-connecting-ip": "203.0.113.8", ...spoofed }))).toBe("203.0.113.8");
  });
});

describe("client IP elsewhere", () => {
  it("never trusts a spoofed X-Forwarded-For (or Vercel's header) without VERCEL=1: the socket address counts", () => {
    useEnvironment({});
    expect(getClientIp(request(spoofed, "192.0.2.10"))).toBe("192.0.2.10");
    expect(describeClientIpSource()).toEqual({ source: "socket" });
    // A caller cannot pose as the socket address either: the marker carries a per-process secret.
    expect(getClientIp(request({ [SOCKET_IP_HEADER]: "192.0.2.11", ...spoofed }))).toBe("unknown");
  });

  it("with TRUSTED_PROXY=x-forwarded-for, takes the entry the proxy appended, not the caller's first one", () => {
    useEnvironment({ TRUSTED_PROXY: "x-forwarded-for" });
    expect(getClientIp(request({ "x-forwarded-for": "203.0.113.66, 192.0.2.20" }, "10.0.0.2"))).toBe("192.0.2.20");
  });
});
