import { Ratelimit } from "@upstash/ratelimit";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { BackendGuard } from "@/lib/kv/internal/backend-guard";
import { BoundedMap } from "@/lib/kv/internal/bounded-map";
import { rateLimitResultOf, unavailableRateLimitResult, windowMsOf } from "@/lib/kv/internal/kv-arguments";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "@/lib/kv/kv";

interface SlidingWindowRateLimiterOptions {
  /** An @upstash/redis client: REST (Upstash); Redis over TCP runs the script itself (redis/redis-sliding-window-rate-limiter.ts). */
  redis: UpstashRedis;
  keyPrefix: string;
  guard: BackendGuard;
}

/**
 * @upstash/ratelimit's sliding window, one Ratelimit instance per (limit, window) kept for the life
 * of the process: a call is one EVALSHA round trip. Keys are `<prefix>rl:<windowMs>:<key>:<bucket>`,
 * so changing a rule's limit keeps the counts. A caller refused once is answered from the
 * in-process block list until its bucket ends, without a round trip. Fails open by default when the
 * backend is unreachable or slower than the timeout (see kv.ts).
 */
export class SlidingWindowRateLimiter implements RateLimiter {
  private readonly limiters = new BoundedMap<string, Ratelimit>(1000);

  constructor(private readonly options: SlidingWindowRateLimiterOptions) {}

  async limit(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    const windowMs = windowMsOf(rule);
    const limiter = this.limiterFor(rule.limit, windowMs);
    const failClosed = rule.whenUnavailable === "deny";
    return this.options.guard.run(
      "rate limiter",
      async () => {
        const response = await limiter.limit(key);
        return rateLimitResultOf(rule, { success: response.success, remaining: response.remaining, resetAt: response.reset });
      },
      () => unavailableRateLimitResult(rule, windowMs),
      failClosed ? "request refused (fails closed for this rule)" : "request allowed (fails open)",
    );
  }

  private limiterFor(limit: number, windowMs: number): Ratelimit {
    const id = `${limit}/${windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.options.redis,
        limiter: Ratelimit.slidingWindow(limit, `${windowMs} ms`),
        prefix: `${this.options.keyPrefix}rl:${windowMs}`,
        // Our guard owns the timeout; the library's own would answer success without telling us.
        timeout: 0,
        analytics: false,
        enableProtection: false,
        enableTelemetry: false,
        ephemeralCache: new BoundedMap<string, number>(10_000),
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
