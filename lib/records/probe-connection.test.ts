import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowedHosts } from "@/lib/outbound/allowed-hosts";
import { probeMongo, probePostgres } from "./probe-connection";
import { closedPort, silentServer } from "./testing/local-servers";

const databaseUrl = process.env.DATABASE_URL;
const PASSWORD = "pa55-w0rd-never-shown";

// These servers are on loopback, which the outbound guard refuses unless it is allow-listed.
const loopbackAllowed = { allowedHosts: parseAllowedHosts("127.0.0.1") };

function withCredentials(url: string, user: string, database: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = PASSWORD;
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

describe("connection test against loopback servers", () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    silent = await silentServer();
  });
  afterAll(async () => {
    await silent.close();
  });

  it("PostgreSQL: connection refused", async () => {
    const port = await closedPort();
    const result = await probePostgres(`postgres://app:${PASSWORD}@127.0.0.1:${port}/shop`, 2_000, loopbackAllowed);
    expect(result).toEqual({
      ok: false,
      reason: "connection_refused",
      message: `Connection refused by 127.0.0.1:${port}: is the database server running and listening on that port?`,
    });
  });

  it("PostgreSQL: timed out", async () => {
    const result = await probePostgres(`postgres://app:${PASSWORD}@127.0.0.1:${silent.port}/shop`, 300, loopbackAllowed);
    expect(result.reason).toBe("timed_out");
    expect(result.message).toBe(`Timed out connecting to 127.0.0.1:${silent.port}: check the address and that the server accepts connections from this platform.`);
  });

  it("MongoDB: connection refused", async () => {
    const port = await closedPort();
    const result = await probeMongo(`mongodb://app:${PASSWORD}@127.0.0.1:${port}/shop`, 500, loopbackAllowed);
    expect(result.ok).toBe(false);
    expect(result.reason).toBe("connection_refused");
    expect(result.message).not.toContain(PASSWORD);
  });

  it("MongoDB: timed out", async () => {
    const result = await probeMongo(`mongodb://app:${PASSWORD}@127.0.0.1:${silent.port}/shop`, 300, loopbackAllowed);
    expect(result.reason).toBe("timed_out");
    expect(result.message).not.toContain(PASSWORD);
  });

  it("a connection string the driver cannot read", async () => {
    expect(await probeMongo(`mongodb://app:${PASSWORD}@127.0.0.1:1/shop?maxPoolSize=many`, 300, loopbackAllowed)).toEqual({
      ok: false,
      reason: "other",
      message: "The connection string is not valid.",
    });
  });
});

describe.skipIf(!databaseUrl)("connection test against the real PostgreSQL server", () => {
  const url = databaseUrl as string;

  it("connects", async () => {
    const result = await probePostgres(url, 5_000);
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(/^Connected to /);
  });

  it("database does not exist", async () => {
    const parsed = new URL(url);
    const result = await probePostgres(withCredentials(url, parsed.username || "postgres", "no_such_database_here"), 5_000);
    expect(result.reason).toBe("database_not_found");
    expect(result.message).toBe(`Database "no_such_database_here" does not exist on ${parsed.hostname}:${parsed.port || 5432}.`);
    expect(result.message).not.toContain(PASSWORD);
  });

  it("authentication failed (an unknown role)", async () => {
    const parsed = new URL(url);
    const result = await probePostgres(withCredentials(url, "no_such_role_here", parsed.pathname.slice(1) || "postgres"), 5_000);
    expect(result.reason).toBe("authentication_failed");
    expect(result.message).toBe('Authentication failed for user "no_such_role_here": check the user name and password.');
  });
});
