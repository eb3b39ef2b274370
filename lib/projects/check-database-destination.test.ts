import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { BUILT_IN_DATABASE_ON_SERVERLESS, checkDatabaseDestination } from "./check-database-destination";

const SERVERLESS_DEPLOYMENT = {
  DEPLOY_TARGET: "serverless",
  DATABASE_URL: "postgres://flowpoint@db.example:5432/flowpoint",
  UPSTASH_REDIS_REST_URL: "https://eu1-example.upstash.io",
  UPSTASH_REDIS_REST_TOKEN: "token",
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}`,
  NEXTAUTH_SECRET: "secret",
  NEXTAUTH_URL: "https://flowpoint.example",
  REDIS_URL: undefined,
};
const saved = Object.fromEntries(Object.keys(SERVERLESS_DEPLOYMENT).map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
});

describe("a project's database on a serverless host", () => {
  it("refuses the built-in database, pointing at database.kind", async () => {
    for (const [name, value] of Object.entries(SERVERLESS_DEPLOYMENT)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfigForTests();
    await expect(checkDatabaseDestination({ kind: "local" })).rejects.toMatchObject({
      code: "validation_failed",
      message: BUILT_IN_DATABASE_ON_SERVERLESS,
      issues: [{ path: "database.kind", message: BUILT_IN_DATABASE_ON_SERVERLESS }],
    });
  });

  it("accepts it on a long-lived server", async () => {
    resetConfigForTests();
    await expect(checkDatabaseDestination({ kind: "local" })).resolves.toBeUndefined();
  });
});
