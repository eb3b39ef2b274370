import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { getConfig } from "@/lib/config";
import { describeCacheContract } from "@/lib/kv/cache.contract";
import { describeOutageContract } from "@/lib/kv/outage.contract";
import { describePubSubContract } from "@/lib/kv/pubsub.contract";
import { describeRateLimiterContract } from "@/lib/kv/rate-limiter.contract";
import { deleteKeysUnder, redisTestBackend } from "@/lib/kv/testing/kv-test-backends";

const redisUrl = getConfig().REDIS_URL;

if (redisUrl) {
  describeRateLimiterContract(redisTestBackend(redisUrl));
  describeCacheContract(redisTestBackend(redisUrl));
  describePubSubContract(redisTestBackend(redisUrl));
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
