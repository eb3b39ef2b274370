import { AppError } from "@/lib/errors";
import { getKv } from "@/lib/kv/get-kv";
import type { RequestActor } from "./authenticate-request";

/**
 * Management and records API calls: 600 a minute per API key or dashboard user, counted in batches
 * (RateLimitRule.batchCounts): scripts that write records at full speed would otherwise wait for a
 * Redis round trip per call.
 */
export const MANAGEMENT_RATE_LIMIT = { limit: 600, windowSeconds: 60, batchCounts: true } as const;

export async function enforceManagementRateLimit(actor: RequestActor): Promise<void> {
  const subject = actor.type === "api_key" ? `key:${actor.keyId}` : `user:${actor.userId}`;
  const result = await getKv().rateLimiter.limit(`mgmt:${subject}`, MANAGEMENT_RATE_LIMIT);
  if (!result.success) {
    throw new AppError("rate_limited", "too many requests", {
      headers: {
        "retry-after": String(result.retryAfterSeconds),
        "x-ratelimit-limit": String(result.limit),
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.ceil(result.resetAt / 1000)),
      },
    });
  }
}
