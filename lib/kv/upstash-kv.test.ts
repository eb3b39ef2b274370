import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { describeCacheContract } from "@/lib/kv/cache.contract";
import { createKv } from "@/lib/kv/create-kv";
import { describeOutageContract } from "@/lib/kv/outage.contract";
import { describeRateLimiterContract } from "@/lib/kv/rate-limiter.contract";
import { deleteKeysUnder, upstashTestBackend } from "@/lib/kv/testing/kv-test-backends";
import { startUpstashRestBridge } from "@/lib/kv/testing/upstash-rest-bridge";

const redisUrl = getConfig().REDIS_URL;

describe("upstash kv", () => {
  it("offers no pub/sub (Upstash deployments invalidate through version keys)", async () => {
    const kv = createKv({ kind: "upstash", url: "http://127.0.0.1:9", token: "unused" });
    expect(kv.kind).toBe("upstash");
    expect(kv.pubsub).toBeUndefined();
    await kv.close();
  });
});

if (redisUrl) {
  describeRateLimiterContract(upstashTestBackend(redisUrl));
  describeCacheContract(upstashTestBackend(redisUrl));
} else {
  describe("upstash kv contracts through the REST bridge (skipped: REDIS_URL is not set)", () => {
    it.skip("rate limiter and cache contracts against real Redis behind the Upstash REST bridge", () => undefined);
  });
}

const outagePrefix = `fp:test:${randomUUID()}:outage:`;
const bridgeToken = `token-${randomUUID()}`;
describeOutageContract({
  kind: "upstash",
  optionsFor: (port, secret) => ({ kind: "upstash", url: `http://127.0.0.1:${port}`, token: secret || bridgeToken, keyPrefix: outagePrefix }),
  realBackend: redisUrl
    ? async () => {
        const bridge = await startUpstashRestBridge({ redisUrl, token: bridgeToken });
        const url = new URL(bridge.url);
        return {
          host: url.hostname,
          port: Number(url.port),
          close: async () => {
            await bridge.close();
            await deleteKeysUnder(redisUrl, `${outagePrefix}*`);
          },
        };
      }
    : undefined,
});
