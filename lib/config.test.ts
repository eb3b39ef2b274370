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
