import { Redis as IORedis, type RedisOptions as IORedisOptions } from "ioredis";
import { BackendGuard, describeKvError, ThrottledWarnings, withTimeout } from "@/lib/kv/internal/backend-guard";
import { IoredisRequester } from "@/lib/kv/redis/ioredis-requester";
import { RedisPubSub } from "@/lib/kv/redis/redis-pubsub";
import { RedisProtocolCache } from "@/lib/kv/shared/redis-protocol-cache";
import { RedisSlidingWindowRateLimiter } from "@/lib/kv/redis/redis-sliding-window-rate-limiter";
import { DEFAULT_COOLDOWN_MS, DEFAULT_KEY_PREFIX, DEFAULT_TIMEOUT_MS, DEFAULT_WARNING_INTERVAL_MS, type Kv, type RedisKvOptions } from "@/lib/kv/kv";

function connectionOptions(timeoutMs: number): IORedisOptions {
  return {
    connectTimeout: Math.max(2000, timeoutMs * 4),
    // Commands queued while (re)connecting fail as soon as an attempt fails, instead of piling up.
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // Redis Sentinel/cluster readiness checks are not needed: a plain INFO round trip on connect.
    enableReadyCheck: true,
    // Commands issued in the same turn of the event loop (concurrent requests' rate limits and
    // generation reads) go out in one write: each socket write is a system call on the hot path.
    enableAutoPipelining: true,
  };
}

/** Redis over TCP: one command connection (limiter, cache, publish) and, on demand, one subscriber. */
export function createRedisKv(options: RedisKvOptions): Kv {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const warnings = new ThrottledWarnings("redis", options.logger ?? console, options.warningIntervalMs ?? DEFAULT_WARNING_INTERVAL_MS);
  const guard = new BackendGuard({ timeoutMs, cooldownMs: options.cooldownMs ?? DEFAULT_COOLDOWN_MS, warnings });

  const client = new IORedis(options.url, connectionOptions(timeoutMs));
  client.on("error", (error: unknown) => warnings.warn("connection", describeKvError(error)));
  const requester = new IoredisRequester(client);
  const send = (command: Parameters<IoredisRequester["send"]>[0]) => requester.send(command);

  const cache = new RedisProtocolCache({ send, keyPrefix, guard });
  const pubsub = new RedisPubSub({
    send,
    openSubscriber: () => new IORedis(options.url, { ...connectionOptions(timeoutMs), maxRetriesPerRequest: null }),
    channelPrefix: keyPrefix,
    guard,
  });

  const rateLimiter = new RedisSlidingWindowRateLimiter({ client, keyPrefix, guard });
  return {
    kind: "redis",
    keyPrefix,
    rateLimiter,
    cache,
    pubsub,
    ping: () => cache.ping(),
    close: async () => {
      pubsub.close();
      if (client.status === "ready") {
        // Calls admitted from this instance's counts (RateLimitRule.batchCounts) are counted before it goes.
        await rateLimiter.flushBatchedCounts();
        await withTimeout(client.quit(), timeoutMs).catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
