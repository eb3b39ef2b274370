import net from "node:net";
import tls from "node:tls";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowedHosts } from "@/lib/outbound/allowed-hosts";
import type { ConnectTarget } from "@/lib/outbound/safe-fetch";
import { probePostgres } from "../probe-connection";
import { createScratchDatabase, type ScratchDatabase } from "../testing/scratch-postgres";
import { createPostgresRecordStore } from "./create-postgres-record-store";
import { LOOPBACK_ANSWER, PUBLIC_ADDRESS, rebindingLookup } from "@/lib/outbound/testing/rebinding-lookup";
import { caughtAppError } from "@/test/support/caught-app-error";

/**
 * Security issue 9, item 10: a customer PostgreSQL URL passes the outbound guard on EVERY connection
 * the driver opens, and the driver dials the address the guard checked. Against the real local server
 * (127.0.0.1), with an injected resolver simulating DNS (rebinding, mixed answers).
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("PostgreSQL customer stores: the outbound guard at connect time", () => {
  let scratch: ScratchDatabase;
  let admin: pg.Client;
  let port: number;
  let database: string;

  /** The scratch database's URL with another host (and optionally a user). */
  const urlWith = (host: string) => {
    const url = new URL(scratch.url);
    url.hostname = host;
    return url.toString();
  };

  /** Sessions the platform's record store has open (or had) on the scratch database right now. */
  async function storeSessions(): Promise<number> {
    const result = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'flowpoint-%'", [database]);
    return (result.rows[0] as { n: number }).n;
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase(databaseUrl as string, "records_dial");
    const parsed = new URL(scratch.url);
    port = Number(parsed.port || 5432);
    database = parsed.pathname.slice(1);
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await scratch?.drop();
  });

  it("rebinding (public first, loopback after): each connection resolves once and dials only what it checked", async () => {
    const lookup = rebindingLookup([{ address: PUBLIC_ADDRESS, family: 4 }], LOOPBACK_ANSWER);
    const dialled: ConnectTarget[] = [];
    const store = createPostgresRecordStore({
      url: urlWith("rebind.test"),
      guard: {
        lookup,
        allowedHosts: [],
        beforeConnect: (target) => {
          dialled.push(target);
          throw new Error("test veto: never contact a public address");
        },
      },
    });
    try {
      // First connection: the checked public address is the one dialled (vetoed, so nothing is contacted).
      const first = await caughtAppError(store.ping());
      expect(first.code).toBe("unavailable");
      expect(lookup.calls()).toBe(1);
      expect(dialled).toEqual([{ address: PUBLIC_ADDRESS, family: 4, port, servername: "rebind.test" }]);
      // The next connection is checked again: the name now answers LOOPBACK_ANSWER, which is refused.
      const second = await caughtAppError(store.ping());
      expect(second.code).toBe("unavailable");
      expect(second.message).toBe("the database is unavailable: outbound request refused: rebind.test resolves to a loopback address");
      expect(lookup.calls()).toBe(2);
      expect(dialled).toHaveLength(1);
      expect(await storeSessions()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("a DNS answer with one public and one private address is refused as a whole", async () => {
    const dialled: ConnectTarget[] = [];
    const store = createPostgresRecordStore({
      url: urlWith("mixed.test"),
      guard: { lookup: async () => [{ address: PUBLIC_ADDRESS, family: 4 }, ...LOOPBACK_ANSWER], allowedHosts: [], beforeConnect: (target) => dialled.push(target) },
    });
    try {
      const error = await caughtAppError(store.find("anything"));
      expect(error.code).toBe("unavailable");
      expect(error.message).toBe("the database is unavailable: outbound request refused: mixed.test resolves to a loopback address");
      expect(JSON.stringify(error.message)).not.toContain("127.0.0.1");
      expect(dialled).toEqual([]);
      expect(await storeSessions()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("a private literal host, or a Unix socket, is refused at connect time (not only when saved)", async () => {
    const urls = [scratch.url, urlWith("0x7f.1"), urlWith("10.0.0.5"), `postgres://postgres@/${database}?host=/var/run/postgresql`];
    for (const url of urls) {
      const store = createPostgresRecordStore({ url, connectionTimeoutMs: 2_000, guard: { allowedHosts: [] } });
      try {
        const error = await caughtAppError(store.ping());
        expect(error.code).toBe("unavailable");
        expect(error.message).toMatch(/^the database is unavailable: outbound request refused: /);
      } finally {
        await store.close();
      }
    }
    expect(await storeSessions()).toBe(0);
    // The connection test reports the refusal instead of connecting.
    const probe = await probePostgres(scratch.url, 2_000, { allowedHosts: [] });
    expect(probe).toEqual({ ok: false, reason: "other", message: "outbound request refused: 127.0.0.1 is a loopback address." });
  });

  it("an allow-listed name works end to end, and every new pool connection is checked and pinned", async () => {
    let calls = 0;
    const dialled: ConnectTarget[] = [];
    const store = createPostgresRecordStore({
      url: urlWith("db.internal.test"),
      maxConnections: 2,
      guard: {
        lookup: async () => {
          calls += 1;
          return LOOPBACK_ANSWER;
        },
        allowedHosts: parseAllowedHosts(`db.internal.test:${port}`),
        beforeConnect: (target) => dialled.push(target),
      },
    });
    try {
      await store.insert("customers", { email: "ada@example.test" });
      expect(await store.find("customers")).toHaveLength(1);
      // Two operations at once need a second connection: it runs the guard again.
      const before = calls;
      await Promise.all([store.count("customers"), store.count("customers"), store.count("customers")]);
      expect(calls).toBeGreaterThan(before);
      expect(dialled.length).toBe(calls);
      expect(dialled.every((target) => target.address === "127.0.0.1" && target.port === port && target.servername === "db.internal.test")).toBe(true);
      // The same name on another port is not allow-listed.
      const other = createPostgresRecordStore({
        url: urlWith("db.internal.test").replace(`:${port}/`, ":6543/"),
        guard: { lookup: async () => LOOPBACK_ANSWER, allowedHosts: parseAllowedHosts(`db.internal.test:${port}`) },
      });
      try {
        expect((await caughtAppError(other.ping())).message).toMatch(/refused: db\.internal\.test resolves to a loopback address$/);
      } finally {
        await other.close();
      }
    } finally {
      await store.close();
    }
    const probe = await probePostgres(urlWith("db.internal.test"), 5_000, { lookup: async () => LOOPBACK_ANSWER, allowedHosts: parseAllowedHosts(`db.internal.test:${port}`) });
    expect(probe.ok).toBe(true);
  });

  it("keeps the original host name for TLS: SNI (and so the certificate check) uses the name, not the dialled IP", async () => {
    // A fake server on loopback that accepts pg's SSLRequest and records the TLS server name asked for.
    const names: string[] = [];
    const server = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.once("data", () => {
        socket.write("S");
        const secure = new tls.TLSSocket(socket, {
          isServer: true,
          SNICallback: (servername, callback) => {
            names.push(servername);
            callback(new Error("test: no certificate"));
          },
        });
        secure.on("error", () => socket.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const fakePort = (server.address() as net.AddressInfo).port;
    try {
      const dialled: ConnectTarget[] = [];
      const store = createPostgresRecordStore({
        url: `postgres://u:p@tls.internal.test:${fakePort}/db?sslmode=verify-full`,
        connectionTimeoutMs: 3_000,
        guard: { lookup: async () => LOOPBACK_ANSWER, allowedHosts: parseAllowedHosts(`tls.internal.test:${fakePort}`), beforeConnect: (target) => dialled.push(target) },
      });
      try {
        expect((await caughtAppError(store.ping())).code).toBe("unavailable");
      } finally {
        await store.close();
      }
      expect(dialled.map((target) => target.address)).toEqual(["127.0.0.1"]);
      expect(names).toEqual(["tls.internal.test"]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
