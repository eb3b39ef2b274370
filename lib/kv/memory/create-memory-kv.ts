import { ThrottledWarnings } from "@/lib/kv/internal/backend-guard";
import { MemoryCache } from "@/lib/kv/memory/memory-cache";
import { MemoryPubSub } from "@/lib/kv/memory/memory-pubsub";
import { MemoryRateLimiter } from "@/lib/kv/memory/memory-rate-limiter";
import { DEFAULT_KEY_PREFIX, DEFAULT_WARNING_INTERVAL_MS, type Kv, type MemoryKvOptions } from "@/lib/kv/kv";

/** The embedded default: everything in this process, nothing shared with other instances. */
export function createMemoryKv(options: MemoryKvOptions): Kv {
  const warnings = new ThrottledWarnings("memory", options.logger ?? console, options.warningIntervalMs ?? DEFAULT_WARNING_INTERVAL_MS);
  const cache = new MemoryCache({
    maxEntries: options.maxCacheEntries ?? 10_000,
    maxBytes: options.maxCacheBytes ?? 64 * 1024 * 1024,
    warnings,
  });
  const pubsub = new MemoryPubSub(warnings);
  return {
    kind: "memory",
    keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX,
    rateLimiter: new MemoryRateLimiter({ maxKeys: options.maxRateLimitKeys ?? 100_000 }),
    cache,
    pubsub,
    ping: () => cache.ping(),
    close: async () => pubsub.close(),
  };
}
