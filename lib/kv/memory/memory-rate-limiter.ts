import { BoundedMap } from "@/lib/kv/internal/bounded-map";
import { rateLimitResultOf, windowMsOf } from "@/lib/kv/internal/kv-arguments";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "@/lib/kv/kv";

interface Buckets {
  /** Index of the fixed window `current` counts (floor(now / windowMs)). */
  window: number;
  current: number;
  previous: number;
}

/**
 * The embedded limiter: the same sliding-window arithmetic as @upstash/ratelimit's Lua script
 * (previous bucket weighted by the part of it the window still overlaps, rounded down), so every
 * backend answers alike. Counts live in this process only.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets: BoundedMap<string, Buckets>;

  constructor(options: { maxKeys: number }) {
    this.buckets = new BoundedMap(options.maxKeys);
  }

  async limit(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    const windowMs = windowMsOf(rule);
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const id = `${windowMs}:${key}`;
    const buckets = this.advance(this.buckets.get(id), window);

    const elapsedShare = (now % windowMs) / windowMs;
    const weightedPrevious = Math.floor((1 - elapsedShare) * buckets.previous);
    const resetAt = (window + 1) * windowMs;
    const success = weightedPrevious + buckets.current < rule.limit;
    if (success) buckets.current += 1;

    this.buckets.delete(id);
    this.buckets.set(id, buckets);
    return rateLimitResultOf(rule, { success, remaining: rule.limit - (buckets.current + weightedPrevious), resetAt }, now);
  }

  private advance(buckets: Buckets | undefined, window: number): Buckets {
    if (!buckets || buckets.window < window - 1) return { window, current: 0, previous: 0 };
    if (buckets.window === window - 1) return { window, current: 0, previous: buckets.current };
    return buckets;
  }
}
