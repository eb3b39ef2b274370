import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isAppError } from "@/lib/errors";
import type { RateLimitResult } from "@/lib/kv/kv";
import type { KvTestBackend } from "@/lib/kv/testing/kv-test-backends";

/** A window long enough that a test never straddles two buckets by accident. */
const LONG_WINDOW_SECONDS = 3600;

/** The rate limiter contract: every backend runs these cases. */
export function describeRateLimiterContract(backend: KvTestBackend): void {
  describe(`rate limiter contract (${backend.kind})`, () => {
    beforeAll(() => backend.setup());
    afterAll(() => backend.teardown());
    afterEach(() => {
      vi.useRealTimers();
    });

    const newLimiter = () => backend.create({ keyPrefix: backend.uniquePrefix() }).rateLimiter;

    it("allows exactly N in a window and refuses N+1 with a sane retryAfter", async () => {
      const limiter = newLimiter();
      const rule = { limit: 5, windowSeconds: LONG_WINDOW_SECONDS };
      const before = Date.now();
      const results: RateLimitResult[] = [];
      for (let i = 0; i < 6; i += 1) results.push(await limiter.limit("caller", rule));

      expect(results.map((result) => result.success)).toEqual([true, true, true, true, true, false]);
      expect(results.map((result) => result.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
      for (const result of results) {
        expect(result.limit).toBe(5);
        expect(result.degraded).toBeUndefined();
      }
      const refused = results[5] as RateLimitResult;
      expect(refused.resetAt).toBeGreaterThan(before);
      expect(refused.resetAt).toBeLessThanOrEqual(Date.now() + LONG_WINDOW_SECONDS * 1000);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(LONG_WINDOW_SECONDS);
      expect(Math.abs(refused.retryAfterSeconds - (refused.resetAt - Date.now()) / 1000)).toBeLessThan(2);
      expect((results[0] as RateLimitResult).retryAfterSeconds).toBe(0);
    });

    it("keeps refusing while the window lasts", async () => {
      const limiter = newLimiter();
      const rule = { limit: 2, windowSeconds: LONG_WINDOW_SECONDS };
      await limiter.limit("caller", rule);
      await limiter.limit("caller", rule);
      for (let i = 0; i < 3; i += 1) {
        const result = await limiter.limit("caller", rule);
        expect(result.success).toBe(false);
        expect(result.remaining).toBe(0);
      }
    });

    it("keeps keys isolated", async () => {
      const limiter = newLimiter();
      const rule = { limit: 2, windowSeconds: LONG_WINDOW_SECONDS };
      await limiter.limit("ep_1:ip:10.0.0.1", rule);
      await limiter.limit("ep_1:ip:10.0.0.1", rule);
      expect((await limiter.limit("ep_1:ip:10.0.0.1", rule)).success).toBe(false);
      expect(await limiter.limit("ep_1:ip:10.0.0.2", rule)).toMatchObject({ success: true, remaining: 1 });
      expect(await limiter.limit("ep_2:ip:10.0.0.1", rule)).toMatchObject({ success: true, remaining: 1 });
    });

    it("counts rules with different windows separately", async () => {
      const limiter = newLimiter();
      await limiter.limit("caller", { limit: 1, windowSeconds: LONG_WINDOW_SECONDS });
      expect((await limiter.limit("caller", { limit: 1, windowSeconds: LONG_WINDOW_SECONDS })).success).toBe(false);
      expect((await limiter.limit("caller", { limit: 1, windowSeconds: LONG_WINDOW_SECONDS / 2 })).success).toBe(true);
    });

    it("never lets concurrent calls past the limit", async () => {
      const limiter = newLimiter();
      const rule = { limit: 10, windowSeconds: LONG_WINDOW_SECONDS };
      const results = await Promise.all(Array.from({ length: 25 }, () => limiter.limit("burst", rule)));
      expect(results.filter((result) => result.success)).toHaveLength(10);
    });

    it("slides: the previous bucket counts in proportion to its overlap with the window", async () => {
      const limiter = newLimiter();
      const rule = { limit: 10, windowSeconds: 10 };
      // Only Date moves; timers stay real so sockets and timeouts behave.
      vi.useFakeTimers({ toFake: ["Date"] });
      const bucketStart = (Math.floor(Date.now() / 10_000) + 1) * 10_000;

      vi.setSystemTime(bucketStart + 1000);
      let allowed = 0;
      for (let i = 0; i < 10; i += 1) allowed += (await limiter.limit("slider", rule)).success ? 1 : 0;
      expect(allowed).toBe(10);
      const refused = await limiter.limit("slider", rule);
      expect(refused).toMatchObject({ success: false, resetAt: bucketStart + 10_000, retryAfterSeconds: 9 });

      // Half-way through the next bucket, half of the previous one still counts: 5 more pass.
      vi.setSystemTime(bucketStart + 15_000);
      const halfway: boolean[] = [];
      for (let i = 0; i < 6; i += 1) halfway.push((await limiter.limit("slider", rule)).success);
      expect(halfway).toEqual([true, true, true, true, true, false]);

      // Two buckets later nothing of the old ones counts.
      vi.setSystemTime(bucketStart + 30_000);
      expect(await limiter.limit("slider", rule)).toMatchObject({ success: true, remaining: 9 });
    });

    if (backend.sharedAcrossInstances) {
      it("shares counts between instances on separate connections (two app processes)", async () => {
        const keyPrefix = backend.uniquePrefix();
        const first = backend.create({ keyPrefix }).rateLimiter;
        const second = backend.create({ keyPrefix }).rateLimiter;
        const rule = { limit: 5, windowSeconds: LONG_WINDOW_SECONDS };
        for (let i = 0; i < 3; i += 1) expect((await first.limit("shared", rule)).success).toBe(true);
        expect(await second.limit("shared", rule)).toMatchObject({ success: true, remaining: 1 });
        expect(await second.limit("shared", rule)).toMatchObject({ success: true, remaining: 0 });
        expect((await second.limit("shared", rule)).success).toBe(false);
        expect((await first.limit("shared", rule)).success).toBe(false);
      });

      it("keeps counts apart under different key prefixes", async () => {
        const first = newLimiter();
        const second = newLimiter();
        const rule = { limit: 1, windowSeconds: LONG_WINDOW_SECONDS };
        expect((await first.limit("same-key", rule)).success).toBe(true);
        expect((await second.limit("same-key", rule)).success).toBe(true);
      });
    } else {
      it("keeps counts per instance (the embedded backend is single-instance by design)", async () => {
        const keyPrefix = backend.uniquePrefix();
        const first = backend.create({ keyPrefix }).rateLimiter;
        const second = backend.create({ keyPrefix }).rateLimiter;
        const rule = { limit: 1, windowSeconds: LONG_WINDOW_SECONDS };
        expect((await first.limit("own", rule)).success).toBe(true);
        expect((await first.limit("own", rule)).success).toBe(false);
        expect((await second.limit("own", rule)).success).toBe(true);
      });
    }

    it("rejects rules that are bugs (zero limit, zero window) with an internal AppError", async () => {
      const limiter = newLimiter();
      for (const rule of [
        { limit: 0, windowSeconds: 60 },
        { limit: 1.5, windowSeconds: 60 },
        { limit: 5, windowSeconds: 0 },
      ]) {
        const error = await limiter.limit("caller", rule).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isAppError(error) && error.code === "internal").toBe(true);
      }
    });
  });
}
