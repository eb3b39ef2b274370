import { AppError } from "@/lib/errors";
import { getKv } from "@/lib/kv/get-kv";
import type { EndpointAuthMode } from "../endpoint-definition";

/** Fixed guardrails (docs/DESIGN.md section 6), counted per endpoint and caller. */
export const INVOCATION_RATE_LIMITS: Record<EndpointAuthMode, { limit: number; windowSeconds: number }> = {
  public: { limit: 60, windowSeconds: 60 },
  api_key: { limit: 300, windowSeconds: 60 },
  end_user: { limit: 120, windowSeconds: 60 },
};

/** Counts the call; answers the rate-limit headers, or throws 429 with Retry-After. */
export async function rateLimitCaller(options: { endpointId: string; auth: EndpointAuthMode; subject: string }): Promise<Record<string, string>> {
  const rule = INVOCATION_RATE_LIMITS[options.auth];
  const result = await getKv().rateLimiter.limit(`inv:${options.endpointId}:${options.subject}`, rule);
  const headers: Record<string, string> = {
    "x-ratelimit-limit": String(result.limit),
    "x-ratelimit-remaining": String(Math.max(0, result.remaining)),
    "x-ratelimit-reset": String(Math.ceil(result.resetAt / 1000)),
  };
  if (!result.success) {
    throw new AppError("rate_limited", "rate limit exceeded", { headers: { ...headers, "retry-after": String(Math.max(1, result.retryAfterSeconds)) } });
  }
  return headers;
}
