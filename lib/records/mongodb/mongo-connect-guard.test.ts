import type { LookupAddress } from "node:dns";
import net from "node:net";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseAllowedHosts } from "@/lib/outbound/allowed-hosts";
import { guardedLookup } from "@/lib/outbound/guarded-socket";
import type { ConnectTarget, ResolvedAddress } from "@/lib/outbound/safe-fetch";
import { probeMongo } from "../probe-connection";
import { guardedMongoOptions, mongoSeedHosts } from "./mongo-connect-guard";
import { createMongoRecordStore } from "./mongodb-record-store";
import { LOOPBACK_ANSWER, PUBLIC_ADDRESS, rebindingLookup } from "@/lib/outbound/testing/rebinding-lookup";

/**
 * Security issue 9, item 10: the MongoDB driver resolves every host it connects to (seed hosts, SRV
 * targets, replica-set members) through the guarded `lookup` socket option, which resolves once and
 * answers only checked addresses. No MongoDB server runs here: the real driver is pointed at a loopback
 * listener that counts connections, and DNS answers come from an injected resolver.
 */

/** Runs a guarded lookup the way net.connect does; resolves with its answer or its error. */
function runLookup(lookup: ReturnType<typeof guardedLookup>, hostname: string, all: boolean): Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }> {
  return new Promise((resolve) => lookup(hostname, { all }, (error, address, family) => resolve({ error, address, family })));
}

describe("guardedLookup (the MongoDB driver's lookup option)", () => {
  it("answers only checked addresses, in both of Node's calling styles", async () => {
    const lookup = guardedLookup({ lookup: async () => [{ address: PUBLIC_ADDRESS, family: 4 }], allowedHosts: [] });
    expect(await runLookup(lookup, "db.example.test", true)).toEqual({ error: null, address: [{ address: PUBLIC_ADDRESS, family: 4 }], family: undefined });
    expect(await runLookup(lookup, "db.example.test", false)).toEqual({ error: null, address: PUBLIC_ADDRESS, family: 4 });
  });

  it("refuses a private answer, a mixed answer and localhost", async () => {
    const cases: Array<[string, ResolvedAddress[], string]> = [
      ["db.example.test", LOOPBACK_ANSWER, "outbound request refused: db.example.test resolves to a loopback address"],
      [
        "db.example.test",
        [
          { address: PUBLIC_ADDRESS, family: 4 },
          { address: "10.1.2.3", family: 4 },
        ],
        "outbound request refused: db.example.test resolves to a private address",
      ],
      ["db.example.test", [{ address: "169.254.169.254", family: 4 }], "outbound request refused: db.example.test resolves to the cloud metadata address"],
      ["localhost", LOOPBACK_ANSWER, "outbound request refused: localhost is a loopback host name"],
    ];
    for (const [hostname, answer, message] of cases) {
      const result = await runLookup(guardedLookup({ lookup: async () => answer, allowedHosts: [] }), hostname, true);
      expect(result.error).toBeInstanceOf(AppError);
      expect(result.error?.message).toBe(message);
    }
  });

  it("lets an allow-listed name resolve to a private address", async () => {
    const lookup = guardedLookup({ lookup: async () => LOOPBACK_ANSWER, allowedHosts: parseAllowedHosts("mongo.internal.test:27017") });
    expect(await runLookup(lookup, "mongo.internal.test", false)).toEqual({ error: null, address: "127.0.0.1", family: 4 });
  });
});

describe("guardedMongoOptions", () => {
  it("reads seed lists", () => {
    expect(mongoSeedHosts("mongodb://u:p@a.example.test,b.example.test:27018,[fd00::1]:27019/db?replicaSet=rs")).toEqual([
      { host: "a.example.test", port: 27017 },
      { host: "b.example.test", port: 27018 },
      { host: "fd00::1", port: 27019 },
    ]);
    expect(mongoSeedHosts("mongodb://%2Ftmp%2Fmongodb-27017.sock/db")).toEqual([{ host: "/tmp/mongodb-27017.sock", port: 27017 }]);
  });

  it("gives MongoClient the guarded lookup", () => {
    const options = guardedMongoOptions("mongodb+srv://u:p@cluster0.example.test/db", { allowedHosts: [] });
    expect(typeof options.lookup).toBe("function");
    const client = new MongoClient("mongodb://db.example.test/db", options);
    expect(client.options.lookup).toBe(options.lookup);
  });

  it("refuses private literal seed hosts and Unix sockets (Node never asks a lookup about those)", () => {
    for (const [url, message] of [
      ["mongodb://u:p@db.example.test,10.0.0.5:27017/db", "outbound request refused: 10.0.0.5 is a private address"],
      ["mongodb://[::1]:27017/db", "outbound request refused: ::1 is a loopback address"],
      ["mongodb://%2Ftmp%2Fmongodb-27017.sock/db", "outbound request refused: the database host must be a host name or an IP address"],
    ] as const) {
      expect(() => guardedMongoOptions(url, { allowedHosts: [] })).toThrow(message);
    }
    expect(() => guardedMongoOptions("mongodb://127.0.0.1:27017/db", { allowedHosts: parseAllowedHosts("127.0.0.1:27017") })).not.toThrow();
    expect(() => guardedMongoOptions("mongodb://127.0.0.1:27018/db", { allowedHosts: parseAllowedHosts("127.0.0.1:27017") })).toThrow(/loopback/);
  });
});

describe("MongoDB record store: the real driver connects only to checked addresses", () => {
  let server: net.Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    // Not MongoDB: it only counts who reaches it, and hangs up.
    server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function pingFailure(store: ReturnType<typeof createMongoRecordStore>): Promise<AppError> {
    try {
      const error = await store.ping({ timeoutMs: 2_000 }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    } finally {
      await store.close();
    }
  }

  it("rebinding (public first, loopback after): the driver dials only checked addresses, never loopback", async () => {
    const lookup = rebindingLookup([{ address: PUBLIC_ADDRESS, family: 4 }], LOOPBACK_ANSWER);
    const dialled: ConnectTarget[] = [];
    const store = createMongoRecordStore({
      url: `mongodb://mongo.rebind.test:${port}/shop`,
      serverSelectionTimeoutMs: 700,
      guard: {
        lookup,
        allowedHosts: [],
        beforeConnect: (target) => {
          dialled.push(target);
          throw new Error("test veto: never contact a public address");
        },
      },
    });
    const before = connections;
    expect((await pingFailure(store)).code).toBe("unavailable");
    // The driver asked our lookup (it resolved nothing itself), and every answer it used was checked.
    expect(lookup.calls()).toBeGreaterThanOrEqual(1);
    expect(dialled.length).toBeGreaterThanOrEqual(1);
    expect(dialled.every((target) => target.address === PUBLIC_ADDRESS && target.servername === "mongo.rebind.test")).toBe(true);
    expect(connections).toBe(before);
  });

  it("a DNS answer with one public and one private address is refused as a whole", async () => {
    const dialled: ConnectTarget[] = [];
    let calls = 0;
    const store = createMongoRecordStore({
      url: `mongodb://mongo.mixed.test:${port}/shop`,
      serverSelectionTimeoutMs: 500,
      guard: {
        lookup: async () => {
          calls += 1;
          return [{ address: PUBLIC_ADDRESS, family: 4 }, ...LOOPBACK_ANSWER];
        },
        allowedHosts: [],
        beforeConnect: (target) => dialled.push(target),
      },
    });
    const before = connections;
    expect((await pingFailure(store)).code).toBe("unavailable");
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(dialled).toEqual([]);
    expect(connections).toBe(before);
    const probe = await probeMongo(`mongodb://mongo.mixed.test:${port}/shop`, 500, {
      lookup: async () => [{ address: PUBLIC_ADDRESS, family: 4 }, ...LOOPBACK_ANSWER],
      allowedHosts: [],
    });
    expect(probe).toEqual({ ok: false, reason: "other", message: "outbound request refused: mongo.mixed.test resolves to a loopback address." });
    expect(connections).toBe(before);
  });

  it("a private literal host is refused before the driver starts", async () => {
    const before = connections;
    expect(() => createMongoRecordStore({ url: `mongodb://127.0.0.1:${port}/shop`, guard: { allowedHosts: [] } })).toThrow(
      expect.objectContaining({ code: "unavailable", message: "the database is unavailable: outbound request refused: 127.0.0.1 is a loopback address" }),
    );
    expect(await probeMongo(`mongodb://127.0.0.1:${port}/shop`, 500, { allowedHosts: [] })).toEqual({
      ok: false,
      reason: "other",
      message: "outbound request refused: 127.0.0.1 is a loopback address.",
    });
    expect(connections).toBe(before);
  });

  it("an allow-listed name reaches the address its lookup checked", async () => {
    const dialled: ConnectTarget[] = [];
    const store = createMongoRecordStore({
      url: `mongodb://mongo.internal.test:${port}/shop`,
      serverSelectionTimeoutMs: 700,
      guard: { lookup: async () => LOOPBACK_ANSWER, allowedHosts: parseAllowedHosts(`mongo.internal.test:${port}`), beforeConnect: (target) => dialled.push(target) },
    });
    const before = connections;
    // Not a MongoDB server, so the ping fails; but the connection went to the checked address.
    expect((await pingFailure(store)).code).toBe("unavailable");
    expect(connections).toBeGreaterThan(before);
    expect(dialled.length).toBeGreaterThanOrEqual(1);
    expect(dialled.every((target) => target.address === "127.0.0.1")).toBe(true);
  });
});
