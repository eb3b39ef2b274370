import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseAllowedHosts } from "@/lib/outbound/allowed-hosts";
import { closedPort, silentServer } from "../testing/local-servers";
import { createMongoRecordStore } from "./mongodb-record-store";

// No MongoDB server runs here: these tests drive the real driver against loopback ports that
// refuse or never answer. The contract suite covers a real server when MONGODB_URL is set.
// Loopback is refused by the outbound guard unless allow-listed (mongo-connect-guard.test.ts covers that).
const guard = { allowedHosts: parseAllowedHosts("127.0.0.1") };

describe("MongoDB record store without a reachable server", () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    silent = await silentServer();
  });
  afterAll(async () => {
    await silent.close();
  });

  it("answers unavailable when the server refuses connections, without the URL or password", async () => {
    const port = await closedPort();
    const store = createMongoRecordStore({ url: `mongodb://admin:hunter2@127.0.0.1:${port}/shop`, guard, serverSelectionTimeoutMs: 300 });
    try {
      for (const run of [() => store.ping(), () => store.insert("tickets", { a: 1 }), () => store.find("tickets"), () => store.count("tickets")]) {
        const error = await run().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("unavailable");
        expect((error as AppError).message).toBe("the database is unavailable");
        expect((error as AppError).message).not.toContain("hunter2");
      }
    } finally {
      await store.close();
    }
  });

  it("answers timeout when the operation's timeoutMs passes before the server answers", async () => {
    const store = createMongoRecordStore({ url: `mongodb://127.0.0.1:${silent.port}/shop`, guard, serverSelectionTimeoutMs: 10_000 });
    try {
      const started = performance.now();
      const error = await store.ping({ timeoutMs: 150 }).catch((caught: unknown) => caught);
      expect((error as AppError).code).toBe("timeout");
      expect(performance.now() - started).toBeLessThan(5_000);
      const aborted = new AbortController();
      setTimeout(() => aborted.abort(), 50);
      expect(((await store.find("tickets", { signal: aborted.signal }).catch((caught: unknown) => caught)) as AppError).code).toBe("timeout");
    } finally {
      await store.close();
    }
  });

  it("checks input before any command and refuses use after close", async () => {
    const store = createMongoRecordStore({ url: `mongodb://127.0.0.1:${silent.port}`, guard, serverSelectionTimeoutMs: 300 });
    expect(store.kind).toBe("mongodb");
    await expect(store.insert("Bad-Name", { a: 1 })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(store.insert("tickets", { $where: 1 })).rejects.toMatchObject({ code: "validation_failed", issues: [{ path: "$where" }] });
    await expect(store.find("tickets", { where: [{ field: "a.b", op: "eq", value: 1 }] })).rejects.toMatchObject({ code: "validation_failed" });
    expect(store.metrics.queries).toBe(0);
    await store.close();
    await expect(store.ping()).rejects.toMatchObject({ code: "unavailable", message: "the record store is closed" });
  });

  it("claims and reads the ownership marker like any operation: checked first, unavailable without a server", async () => {
    const port = await closedPort();
    const store = createMongoRecordStore({ url: `mongodb://admin:hunter2@127.0.0.1:${port}/shop`, guard, serverSelectionTimeoutMs: 300 });
    try {
      await expect(store.claimOwnership({ projectId: "../x" })).rejects.toMatchObject({ code: "validation_failed" });
      for (const run of [() => store.readOwner(), () => store.claimOwnership({ projectId: "prj_a" }), () => store.claimOwnership({ projectId: "prj_a" }, { takeOver: true })]) {
        const error = await run().catch((caught: unknown) => caught);
        expect((error as AppError).code).toBe("unavailable");
        expect((error as AppError).message).not.toContain("hunter2");
      }
    } finally {
      await store.close();
    }
    await expect(store.readOwner()).rejects.toMatchObject({ code: "unavailable", message: "the record store is closed" });
  });

  it("refuses a malformed connection string without repeating it", () => {
    let error: unknown;
    try {
      createMongoRecordStore({ url: "mongodb://admin:hunter2@127.0.0.1:27017/shop?notAnOption=1&maxPoolSize=abc", guard });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("validation_failed");
    expect((error as AppError).message).not.toContain("hunter2");
  });
});
