import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { recordingLogger, type KvTestBackend } from "@/lib/kv/testing/kv-test-backends";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Values that a JSON-parsing or base64-confused client would get wrong. */
const TRICKY_VALUES = [
  '{"data":{"id":1,"tags":["a","b"]},"status":200}',
  "123",
  "1e3",
  "null",
  "true",
  "OK",
  "",
  "héllo wörld — ✓ 日本語 🎉",
  'line one\nline two\ttabbed "quoted" \\ backslash',
  "x".repeat(100_000),
];

/** The cache contract: every backend runs these cases. */
export function describeCacheContract(backend: KvTestBackend): void {
  describe(`cache contract (${backend.kind})`, () => {
    beforeAll(() => backend.setup());
    afterAll(() => backend.teardown());

    const newCache = () => backend.create({ keyPrefix: backend.uniquePrefix() }).cache;

    it("answers null for an absent key, whatever a read would answer were the backend unavailable", async () => {
      const cache = newCache();
      expect(await cache.get("missing")).toBeNull();
      expect(await cache.get("missing", { whenUnavailable: "last known" })).toBeNull();
      await cache.set("present", "stored", 60);
      expect(await cache.get("present", { whenUnavailable: "last known" })).toBe("stored");
    });

    it("returns exactly the string it stored (no JSON parsing, any characters, 100 KB)", async () => {
      const cache = newCache();
      for (const [index, value] of TRICKY_VALUES.entries()) {
        await cache.set(`value:${index}`, value, 60);
        expect(await cache.get(`value:${index}`)).toBe(value);
      }
    });

    it("overwrites a value", async () => {
      const cache = newCache();
      await cache.set("key", "first", 60);
      await cache.set("key", "second", 60);
      expect(await cache.get("key")).toBe("second");
    });

    it("expires entries after their ttl", async () => {
      const cache = newCache();
      await cache.set("short", "soon gone", 0.3);
      await cache.set("long", "stays", 60);
      expect(await cache.get("short")).toBe("soon gone");
      await sleep(600);
      expect(await cache.get("short")).toBeNull();
      expect(await cache.get("long")).toBe("stays");
    });

    it("deletes a key, and deleting an absent key is fine", async () => {
      const cache = newCache();
      await cache.set("key", "value", 60);
      await cache.delete("key");
      expect(await cache.get("key")).toBeNull();
      await expect(cache.delete("never-set")).resolves.toBeUndefined();
    });

    it("increments from zero, keeps the value readable, and answers null (with a warning) for a non-integer", async () => {
      const logger = recordingLogger();
      const cache = backend.create({ keyPrefix: backend.uniquePrefix(), logger }).cache;
      expect(await cache.incr("version")).toBe(1);
      expect(await cache.incr("version")).toBe(2);
      expect(await cache.incr("version")).toBe(3);
      expect(await cache.get("version")).toBe("3");
      await cache.set("counter", "41", 60);
      expect(await cache.incr("counter")).toBe(42);
      await cache.set("text", "abc", 60);
      expect(await cache.incr("text")).toBeNull();
      expect(await cache.get("text")).toBe("abc");
      expect(logger.messages.some((message) => message.includes("incr"))).toBe(true);
      // A bad command says nothing about the backend's health: the next call is served normally.
      expect(await cache.incr("version")).toBe(4);
    });

    it("setIfAbsent stores once, refuses while held, and succeeds again after expiry or delete", async () => {
      const cache = newCache();
      expect(await cache.setIfAbsent("lock", "owner-a", 0.3)).toBe(true);
      expect(await cache.setIfAbsent("lock", "owner-b", 0.3)).toBe(false);
      expect(await cache.get("lock")).toBe("owner-a");
      await sleep(600);
      expect(await cache.setIfAbsent("lock", "owner-b", 60)).toBe(true);
      expect(await cache.get("lock")).toBe("owner-b");
      await cache.delete("lock");
      expect(await cache.setIfAbsent("lock", "owner-c", 60)).toBe(true);
    });

    it("lets exactly one of many concurrent setIfAbsent calls win", async () => {
      const cache = newCache();
      const wins = await Promise.all(Array.from({ length: 20 }, (_, index) => cache.setIfAbsent("single-flight", `caller-${index}`, 60)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    });

    it("getMany answers in key order with null for absent or expired keys", async () => {
      const cache = newCache();
      await cache.set("a", "1", 60);
      await cache.set("c", "3", 60);
      await cache.set("gone", "x", 0.2);
      await sleep(400);
      expect(await cache.getMany(["a", "b", "c", "gone", "a"])).toEqual(["1", null, "3", null, "1"]);
      expect(await cache.getMany([])).toEqual([]);
    });

    it("keeps key prefixes apart", async () => {
      const first = newCache();
      const second = newCache();
      await first.set("same", "first", 60);
      expect(await second.get("same")).toBeNull();
      await second.set("same", "second", 60);
      expect(await first.get("same")).toBe("first");
    });

    if (backend.sharedAcrossInstances) {
      it("shares entries between instances on separate connections", async () => {
        const keyPrefix = backend.uniquePrefix();
        const first = backend.create({ keyPrefix }).cache;
        const second = backend.create({ keyPrefix }).cache;
        await first.set("shared", "value", 60);
        expect(await second.get("shared")).toBe("value");
        expect(await first.setIfAbsent("lock", "first", 60)).toBe(true);
        expect(await second.setIfAbsent("lock", "second", 60)).toBe(false);
        await second.incr("version");
        expect(await first.incr("version")).toBe(2);
      });
    } else {
      it("keeps entries per instance (the embedded backend is single-instance by design)", async () => {
        const keyPrefix = backend.uniquePrefix();
        const first = backend.create({ keyPrefix }).cache;
        const second = backend.create({ keyPrefix }).cache;
        await first.set("own", "value", 60);
        expect(await second.get("own")).toBeNull();
      });
    }

    it("rejects a ttl that is a bug (zero, negative, not a number) with an internal AppError", async () => {
      const cache = newCache();
      for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        const error = await cache.set("key", "value", ttl).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isAppError(error) && error.code === "internal").toBe(true);
      }
      const error = await cache.setIfAbsent("key", "value", 0).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isAppError(error) && error.code === "internal").toBe(true);
    });

    it("answers ping", async () => {
      const kv = backend.create({ keyPrefix: backend.uniquePrefix() });
      const ping = await kv.ping();
      expect(ping.ok).toBe(true);
      expect(ping.latencyMs).toBeGreaterThanOrEqual(0);
    });
  });
}
