import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { describeCacheContract } from "@/lib/kv/cache.contract";
import { describeOutageContract } from "@/lib/kv/outage.contract";
import { describePubSubContract } from "@/lib/kv/pubsub.contract";
import { describeRateLimiterContract } from "@/lib/kv/rate-limiter.contract";
import { deleteKeysUnder, redisTestBackend, upstashTestBackend } from "@/lib/kv/testing/kv-test-backends";

const redisUrl = getConfig().REDIS_URL;

if (redisUrl) {
  describeRateLimiterContract(redisTestBackend(redisUrl));
  describeCacheContract(redisTestBackend(redisUrl));
  describePubSubContract(redisTestBackend(redisUrl));

  // Redis runs the sliding window's script itself (redis-sliding-window-rate-limiter.ts), Upstash
  // through @upstash/ratelimit: instances of either, sharing a prefix, must count together.
  describe("the Redis rate limiter and @upstash/ratelimit's", () => {
    const redis = redisTestBackend(redisUrl);
    const upstash = upstashTestBackend(redisUrl);
    beforeAll(() => Promise.all([redis.setup(), upstash.setup()]));
    afterAll(() => Promise.all([redis.teardown(), upstash.teardown()]));

    it("share keys and counts", async () => {
      const keyPrefix = redis.uniquePrefix();
      const ours = redis.create({ keyPrefix }).rateLimiter;
      const theirs = upstash.create({ keyPrefix }).rateLimiter;
      const rule = { limit: 3, windowSeconds: 60 };
      expect(await ours.limit("caller", rule)).toMatchObject({ success: true, remaining: 2 });
      expect(await theirs.limit("caller", rule)).toMatchObject({ success: true, remaining: 1 });
      expect(await ours.limit("caller", rule)).toMatchObject({ success: true, remaining: 0 });
      const refused = await theirs.limit("caller", rule);
      expect(refused).toMatchObject({ success: false, remaining: 0 });
      expect(await ours.limit("caller", rule)).toMatchObject({ success: false, remaining: 0, resetAt: refused.resetAt });
      expect(await ours.limit("someone else", rule)).toMatchObject({ success: true, remaining: 2 });
    });
  });
} else {
  describe("redis kv contracts (skipped: REDIS_URL is not set)", () => {
    it.skip("rate limiter, cache and pub/sub contracts against real Redis", () => undefined);
  });
}

const outagePrefix = `fp:test:${randomUUID()}:outage:`;
describeOutageContract({
  kind: "redis",
  optionsFor: (port, secret) => ({ kind: "redis", url: `redis://${secret ? `:${secret}@` : ""}127.0.0.1:${port}`, keyPrefix: outagePrefix }),
  realBackend: redisUrl
    ? async () => {
        const url = new URL(redisUrl);
        return {
          host: url.hostname,
          port: Number(url.port || 6379),
          close: () => deleteKeysUnder(redisUrl, `${outagePrefix}*`),
        };
      }
    : undefined,
});
