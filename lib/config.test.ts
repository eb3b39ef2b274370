import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

describe("configuration", () => {
  it("defaults to the embedded backends", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: ".data", embedded: true, kvBackend: "memory", isProduction: false });
  });

  it("picks real backends from their variables", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://u:p@db:5432/x", REDIS_URL: "redis://cache:6379" })).toMatchObject({ embedded: false, kvBackend: "redis" });
    expect(parseConfig({ UPSTASH_REDIS_REST_URL: "https://x.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" }).kvBackend).toBe("upstash");
  });

  it("names the bad variable and never echoes its value", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: "eighty" }, "PORT"],
      [{ DATABASE_URL: "mysql://user:hunter2@db/x" }, "DATABASE_URL"],
      [{ REDIS_URL: "http://cache" }, "REDIS_URL"],
      [{ UPSTASH_REDIS_REST_URL: "https://x.upstash.io" }, "UPSTASH_REDIS_REST_TOKEN"],
      [{ ENCRYPTION_KEYS: "k1:short" }, "ENCRYPTION_KEYS"],
      [{ TRUSTED_PROXY: "x forwarded" }, "TRUSTED_PROXY"],
      [{ NODE_ENV: "production" }, "ENCRYPTION_KEYS"],
      [{ NODE_ENV: "production", ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}` }, "NEXTAUTH_SECRET"],
    ];
    for (const [env, name] of cases) {
      let error: unknown;
      try {
        parseConfig(env);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(name);
      expect((error as Error).message).not.toContain("hunter2");
    }
  });

  it("accepts a production configuration with its secrets", () => {
    const config = parseConfig({
      NODE_ENV: "production",
      ENCRYPTION_KEYS: `k2:${Buffer.alloc(32, 2).toString("base64")},k1:${Buffer.alloc(32, 1).toString("base64")}`,
      NEXTAUTH_SECRET: "s",
      DATABASE_URL: "postgresql://db/x",
    });
    expect(config.isProduction).toBe(true);
  });
});

describe("configuration on a serverless host", () => {
  const complete = {
    DATABASE_URL: "postgres://u:hunter2@db.example:5432/flowpoint",
    UPSTASH_REDIS_REST_URL: "https://eu1-example.upstash.io",
    UPSTASH_REDIS_REST_TOKEN: "hunter2-token",
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}`,
    NEXTAUTH_SECRET: "hunter2-secret",
    NEXTAUTH_URL: "https://flowpoint.example",
  };

  function refusal(env: Record<string, string>): string {
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(Object.keys(env))}`);
  }

  it.each([
    ["on Vercel", { VERCEL: "1" }],
    ["with DEPLOY_TARGET=serverless", { DEPLOY_TARGET: "serverless" }],
    ["on a Vercel production deployment", { VERCEL: "1", VERCEL_ENV: "production", NODE_ENV: "production" }],
    ["on a Vercel preview deployment", { VERCEL: "1", VERCEL_ENV: "preview" }],
  ])("refuses the embedded backends and per-instance secrets %s, naming every variable to set", (_where, target) => {
    const message = refusal(target);
    for (const name of ["DATABASE_URL", "UPSTASH_REDIS_REST_URL", "REDIS_URL", "ENCRYPTION_KEYS", "NEXTAUTH_SECRET", "NEXTAUTH_URL"]) expect(message).toContain(name);
    expect(message).toMatch(/PGlite/);
    expect(message).toMatch(/in-memory rate limits/);
  });

  it.each(Object.keys(complete).filter((name) => name !== "UPSTASH_REDIS_REST_TOKEN"))("names %s alone when it is the one missing", (missing) => {
    const env: Record<string, string> = { VERCEL: "1", ...complete };
    delete env[missing];
    // The Upstash pair is checked as a pair: without the URL, the token alone is the complaint.
    if (missing === "UPSTASH_REDIS_REST_URL") delete env.UPSTASH_REDIS_REST_TOKEN;
    const message = refusal(env);
    expect(message).toContain(`${missing} `);
    const others = Object.keys(complete).filter((name) => name !== missing && !(missing === "UPSTASH_REDIS_REST_URL" && name === "UPSTASH_REDIS_REST_TOKEN"));
    for (const name of others) expect(message).not.toMatch(new RegExp(`(^|; |: )${name} `));
    expect(message).not.toContain("hunter2");
  });

  it("accepts Upstash or a TCP Redis with PostgreSQL and the secrets, and says it is serverless", () => {
    expect(parseConfig({ VERCEL: "1", ...complete })).toMatchObject({ serverless: true, platform: "vercel", embedded: false, kvBackend: "upstash" });
    const { UPSTASH_REDIS_REST_URL: _url, UPSTASH_REDIS_REST_TOKEN: _token, ...withoutUpstash } = complete;
    expect(parseConfig({ DEPLOY_TARGET: "serverless", ...withoutUpstash, REDIS_URL: "rediss://cache.example:6380" })).toMatchObject({ serverless: true, kvBackend: "redis" });
  });

  it("leaves development, tests and long-lived servers on the embedded defaults", () => {
    expect(parseConfig({})).toMatchObject({ serverless: false, embedded: true, kvBackend: "memory" });
    expect(parseConfig({ NODE_ENV: "test" }).serverless).toBe(false);
    // `vercel dev` and env files pulled for development carry VERCEL=1 with VERCEL_ENV=development.
    expect(parseConfig({ VERCEL: "1", VERCEL_ENV: "development" })).toMatchObject({ serverless: false, embedded: true, platform: null });
    expect(parseConfig({ VERCEL: "1", DEPLOY_TARGET: "server" })).toMatchObject({ serverless: false, embedded: true, platform: "vercel" });
    expect(parseConfig({ VERCEL: "0" }).serverless).toBe(false);
  });

  it("names DEPLOY_TARGET when its value is unknown", () => {
    expect(refusal({ DEPLOY_TARGET: "lambda" })).toContain("DEPLOY_TARGET");
  });
});
