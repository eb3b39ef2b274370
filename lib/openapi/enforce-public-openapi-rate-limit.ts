import { AppError } from "@/lib/errors";
import { getKv } from "@/lib/kv/get-kv";

/** Anonymous reads of a public OpenAPI document: 60 a minute per client IP (like the form intake). */
export const PUBLIC_OPENAPI_RATE_LIMIT = { limit: 60, windowSeconds: 60 } as const;

/** Counts one anonymous read; throws AppError("rate_limited") with Retry-After when over the limit. */
export async function enforcePublicOpenApiRateLimit(options: { projectId: string; clientIp: string }): Promise<void> {
  const result = await getKv().rateLimiter.limit(`openapi:${options.projectId}:ip:${options.clientIp.slice(0, 64)}`, PUBLIC_OPENAPI_RATE_LIMIT);
  if (!result.success) {
    const retryAfter = String(Math.max(1, result.retryAfterSeconds));
    throw new AppError("rate_limited", `too many requests; try again in ${retryAfter} seconds`, { headers: { "retry-after": retryAfter } });
  }
}
