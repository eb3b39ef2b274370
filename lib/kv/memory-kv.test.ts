import { describe, expect, it } from "vitest";
import { describeCacheContract } from "@/lib/kv/cache.contract";
import { createKv } from "@/lib/kv/create-kv";
import { ThrottledWarnings } from "@/lib/kv/internal/backend-guard";
import { MemoryCache } from "@/lib/kv/memory/memory-cache";
import { describePubSubContract } from "@/lib/kv/pubsub.contract";
import { describeRateLimiterContract } from "@/lib/kv/rate-limiter.contract";
import { memoryTestBackend, recordingLogger } from "@/lib/kv/testing/kv-test-backends";

describeRateLimiterContract(memoryTestBackend());
describeCacheContract(memoryTestBackend());
describePubSubContract(memoryTestBackend());

describe("memory cache bounds", () => {
  const newCache = (maxEntries: number, maxBytes = 1024 * 1024) => new MemoryCache({ maxEntries, maxBytes, warnings: new ThrottledWarnings("memory", recordingLogger(), 1000) });

  it("keeps at most maxEntries, dropping the least recently used", async () => {
    const cache = newCache(3);
    await cache.set("a", "1", 60);
    await cache.set("b", "2", 60);
    await cache.set("c", "3", 60);
    expect(await cache.get("a")).toBe("1");
    await cache.set("d", "4", 60);
    expect(cache.size).toBe(3);
    expect(await cache.getMany(["a", "b", "c", "d"])).toEqual(["1", null, "3", "4"]);
  });

  it("keeps the approximate size under maxBytes and never stores an entry larger than the cap", async () => {
    const cache = newCache(1000, 1000);
    for (let i = 0; i < 20; i += 1) await cache.set(`key-${i}`, "x".repeat(100), 60);
    expect(cache.approximateBytes).toBeLessThanOrEqual(1000);
    expect(await cache.get("key-19")).toBe("x".repeat(100));
    expect(await cache.get("key-0")).toBeNull();
    await cache.set("huge", "y".repeat(600), 60);
    expect(await cache.get("huge")).toBeNull();
  });

  it("frees the bytes of overwritten, deleted and expired entries", async () => {
    const cache = newCache(10, 10_000);
    await cache.set("a", "x".repeat(100), 60);
    await cache.set("a", "x".repeat(10), 60);
    await cache.set("b", "y", 0.05);
    await cache.delete("a");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await cache.get("b")).toBeNull();
    expect(cache.approximateBytes).toBe(0);
    expect(cache.size).toBe(0);
  });
});

describe("memory kv", () => {
  it("is the memory kind with pub/sub and a healthy ping", async () => {
    const kv = createKv({ kind: "memory" });
    expect(kv.kind).toBe("memory");
    expect(kv.keyPrefix).toBe("fp:");
    expect(kv.pubsub).toBeDefined();
    expect(await kv.ping()).toEqual({ ok: true, latencyMs: 0 });
    await kv.close();
  });
});
