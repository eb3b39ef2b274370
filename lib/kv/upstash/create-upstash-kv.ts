import { Redis as UpstashRedis } from "@upstash/redis";
import { BackendGuard, ThrottledWarnings } from "@/lib/kv/internal/backend-guard";
import type { RedisCommand } from "@/lib/kv/redis/lua-script-rewriter";
import { RedisProtocolCache } from "@/lib/kv/shared/redis-protocol-cache";
import { SlidingWindowRateLimiter } from "@/lib/kv/shared/sliding-window-rate-limiter";
import { DEFAULT_COOLDOWN_MS, DEFAULT_KEY_PREFIX, DEFAULT_TIMEOUT_MS, DEFAULT_WARNING_INTERVAL_MS, type Kv, type UpstashKvOptions } from "@/lib/kv/kv";

/**
 * Upstash over its REST API (@upstash/redis). No pub/sub: subscribing needs a long-lived stream the
 * REST client does not keep here, so Upstash deployments invalidate through version keys
 * (`cache.incr`) instead.
 */
export function createUpstashKv(options: UpstashKvOptions): Kv {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const warnings = new ThrottledWarnings("upstash", options.logger ?? console, options.warningIntervalMs ?? DEFAULT_WARNING_INTERVAL_MS);
  const guard = new BackendGuard({ timeoutMs, cooldownMs: options.cooldownMs ?? DEFAULT_COOLDOWN_MS, warnings });

  const client = new UpstashRedis({
    url: options.url,
    token: options.token,
    // Cached values are strings the caller owns: never JSON-parse them.
    automaticDeserialization: false,
    // Retries with back-off would outlast the timeout; the guard decides what a failure means.
    retry: false,
    signal: () => AbortSignal.timeout(timeoutMs),
    enableTelemetry: false,
    enableAutoPipelining: false,
    readYourWrites: false,
  });
  const cache = new RedisProtocolCache({ send: (command: RedisCommand) => client.exec(command), keyPrefix, guard });

  return {
    kind: "upstash",
    keyPrefix,
    rateLimiter: new SlidingWindowRateLimiter({ redis: client, keyPrefix, guard }),
    cache,
    ping: () => cache.ping(),
    close: async () => undefined,
  };
}
