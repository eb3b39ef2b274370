import { AppError } from "@/lib/errors";
import type { RateLimitResult, RateLimitRule } from "@/lib/kv/kv";

/** Validates a rule (our code writes rules; a bad one is a bug) and answers its window in ms. */
export function windowMsOf(rule: RateLimitRule): number {
  if (!Number.isInteger(rule.limit) || rule.limit < 1) {
    throw new AppError("internal", `rate limit must be a positive integer, got ${rule.limit}`);
  }
  const windowMs = Math.round(rule.windowSeconds * 1000);
  if (!Number.isFinite(rule.windowSeconds) || windowMs < 1) {
    throw new AppError("internal", `rate limit window must be at least 1 ms, got ${rule.windowSeconds} s`);
  }
  return windowMs;
}

/** Validates a ttl in seconds and answers it in whole milliseconds (at least 1). */
export function ttlMsOf(ttlSeconds: number): number {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new AppError("internal", `cache ttl must be a positive number of seconds, got ${ttlSeconds}`);
  }
  return Math.max(1, Math.round(ttlSeconds * 1000));
}

export function rateLimitResultOf(rule: RateLimitRule, outcome: { success: boolean; remaining: number; resetAt: number }, now = Date.now()): RateLimitResult {
  return {
    success: outcome.success,
    limit: rule.limit,
    remaining: outcome.success ? Math.max(0, outcome.remaining) : 0,
    resetAt: outcome.resetAt,
    retryAfterSeconds: outcome.success ? 0 : Math.max(1, Math.ceil((outcome.resetAt - now) / 1000)),
  };
}

/** The documented answer when the backend cannot be asked (see the outage policy in kv.ts). */
export function unavailableRateLimitResult(rule: RateLimitRule, windowMs: number, now = Date.now()): RateLimitResult {
  const allow = (rule.whenUnavailable ?? "allow") === "allow";
  const resetAt = (Math.floor(now / windowMs) + 1) * windowMs;
  return {
    ...rateLimitResultOf(rule, { success: allow, remaining: rule.limit - 1, resetAt }, now),
    degraded: true,
  };
}
