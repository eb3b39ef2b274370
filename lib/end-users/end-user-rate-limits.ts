import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";
import { getKv } from "@/lib/kv/get-kv";
import type { RateLimitRule } from "@/lib/kv/kv";

/**
 * Rate limits of the end-user auth routes, per project and auth schema. Every request counts
 * (refused and malformed ones too), and per-email limits count emails that have no account exactly
 * like those that do, so a 429 reveals nothing about accounts.
 */
export const END_USER_RATE_LIMITS = {
  register: { ip: { limit: 20, windowSeconds: 60 * 60 } },
  login: { ip: { limit: 30, windowSeconds: 60 }, email: { limit: 10, windowSeconds: 60 } },
  requestPasswordReset: { ip: { limit: 20, windowSeconds: 60 * 60 }, email: { limit: 5, windowSeconds: 60 * 60 } },
  // Tokens are unguessable; these only keep one client from hammering the database.
  verifyEmail: { ip: { limit: 60, windowSeconds: 60 } },
  resetPassword: { ip: { limit: 60, windowSeconds: 60 } },
} as const satisfies Record<string, { ip: RateLimitRule; email?: RateLimitRule }>;

export type EndUserAction = keyof typeof END_USER_RATE_LIMITS;

export interface EnforceEndUserRateLimitOptions {
  action: EndUserAction;
  projectId: string;
  schema: string;
  /** Which subject to count: the client IP, or the (normalized) email the request names. */
  by: "ip" | "email";
  value: string;
}

/** Counts one request; throws AppError("rate_limited") with Retry-After when over the limit. */
export async function enforceEndUserRateLimit(options: EnforceEndUserRateLimitOptions): Promise<void> {
  const rules: { ip: RateLimitRule; email?: RateLimitRule } = END_USER_RATE_LIMITS[options.action];
  const rule = options.by === "ip" ? rules.ip : rules.email;
  if (!rule) return;
  // Emails are hashed: no addresses in the key-value store, and keys of bounded length.
  const subject = options.by === "email" ? createHash("sha256").update(options.value).digest("hex").slice(0, 32) : options.value.slice(0, 64);
  const key = `end-user:${options.action}:${options.by}:${options.projectId}:${options.schema}:${subject}`;
  const result = await getKv().rateLimiter.limit(key, rule);
  if (!result.success) {
    const retryAfter = String(Math.max(1, result.retryAfterSeconds));
    throw new AppError("rate_limited", `too many requests; try again in ${retryAfter} seconds`, { headers: { "retry-after": retryAfter } });
  }
}
