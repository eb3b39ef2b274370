import { Redis as IORedis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import type { RateLimitRule } from "@/lib/kv/kv";
import { redisTestBackend } from "@/lib/kv/testing/kv-test-backends";
import { BATCHED_COUNT_MAX_UNSENT, type RedisSlidingWindowRateLimiter } from "./redis-sliding-window-rate-limiter";

const redisUrl = getConfig().REDIS_URL;

/** An hour's window; a test does not start within 5 s of its end (beforeEach). */
const RULE: RateLimitRule = { limit: 200, windowSeconds: 3600, batchCounts: true };
const WINDOW_MS = 3_600_000;

describe.skipIf(!redisUrl)("Redis rate limits counted in batches (RateLimitRule.batchCounts)", () => {
  const backend = redisTestBackend(redisUrl ?? "");
  let redis: IORedis;
  beforeAll(async () => {
    await backend.setup();
    redis = new IORedis(redisUrl!, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await backend.teardown();
    redis.disconnect();
  });

  beforeEach(async () => {
    // A test that started a few seconds before the window's end would count across two of them.
    const untilNextWindow = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (untilNextWindow < 5000) await new Promise((resolve) => setTimeout(resolve, untilNextWindow + 10));
  });

  function limiterWith(keyPrefix: string): RedisSlidingWindowRateLimiter {
    return backend.create({ keyPrefix }).rateLimiter as RedisSlidingWindowRateLimiter;
  }

  /** What the store has counted for `caller` in the current window. */
  async function storeCount(keyPrefix: string, caller: string): Promise<number> {
    return Number((await redis.get(`${keyPrefix}rl:${WINDOW_MS}:${caller}:${Math.floor(Date.now() / WINDOW_MS)}`)) ?? 0);
  }

  async function admittedOf(calls: Array<() => Promise<{ success: boolean }>>): Promise<number> {
    let admitted = 0;
    for (const call of calls) if ((await call()).success) admitted++;
    return admitted;
  }

  it("admits calls from the count it holds and adds them in the store in a batch", async () => {
    const keyPrefix = backend.uniquePrefix();
    const limiter = limiterWith(keyPrefix);
    expect(await limiter.limit("caller", RULE)).toMatchObject({ success: true, remaining: 199 });
    const admitted = [];
    for (let call = 0; call < 5; call++) admitted.push(await limiter.limit("caller", RULE));
    expect(admitted.map((result) => result.remaining)).toEqual([198, 197, 196, 195, 194]);
    // The first call asked the store; the five after it have not reached it yet.
    expect(await storeCount(keyPrefix, "caller")).toBe(1);
    await limiter.flushBatchedCounts();
    expect(await storeCount(keyPrefix, "caller")).toBe(6);
  });

  it("admits exactly the limit on one instance, asking the store for every call near it", async () => {
    const keyPrefix = backend.uniquePrefix();
    const limiter = limiterWith(keyPrefix);
    const admitted = await admittedOf(Array.from({ length: 260 }, () => () => limiter.limit("caller", RULE)));
    expect(admitted).toBe(RULE.limit);
    await limiter.flushBatchedCounts();
    expect(await storeCount(keyPrefix, "caller")).toBe(RULE.limit);
    expect(await limiter.limit("caller", RULE)).toMatchObject({ success: false, remaining: 0 });
  });

  it("lets two instances past the limit together by at most the calls each holds unsent", async () => {
    const keyPrefix = backend.uniquePrefix();
    const [first, second] = [limiterWith(keyPrefix), limiterWith(keyPrefix)];
    const calls = Array.from({ length: 300 }, (_, index) => () => (index % 2 === 0 ? first : second).limit("caller", RULE));
    const admitted = await admittedOf(calls);
    expect(admitted).toBeGreaterThanOrEqual(RULE.limit - 1);
    expect(admitted).toBeLessThanOrEqual(RULE.limit + 2 * BATCHED_COUNT_MAX_UNSENT);
    await Promise.all([first.flushBatchedCounts(), second.flushBatchedCounts()]);
    // Every admitted call is counted in the store (a refused call that carried unsent ones counts them
    // too); a batch whose answer came after the guard's timeout still arrives, a little later.
    let counted = 0;
    for (let attempt = 0; attempt < 20 && counted < admitted; attempt++) {
      counted = await storeCount(keyPrefix, "caller");
      if (counted < admitted) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(counted).toBeGreaterThanOrEqual(admitted);
  });

  it("counts every call in the store at once for a rule without batches", async () => {
    const keyPrefix = backend.uniquePrefix();
    const limiter = limiterWith(keyPrefix);
    for (let call = 0; call < 5; call++) await limiter.limit("caller", { limit: 200, windowSeconds: 3600 });
    expect(await storeCount(keyPrefix, "caller")).toBe(5);
  });

  it("counts what it admitted before its connection closes", async () => {
    const keyPrefix = backend.uniquePrefix();
    const kv = backend.create({ keyPrefix });
    for (let call = 0; call < 8; call++) await kv.rateLimiter.limit("caller", RULE);
    await kv.close();
    expect(await storeCount(keyPrefix, "caller")).toBe(8);
  });
});
