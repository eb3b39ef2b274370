import type { EndpointAuthMode, EndpointDefinition } from "../endpoint-definition";
import { callerFromRuntime, type InvocationCaller } from "./authenticate-caller";
import type { ProjectRuntime } from "./project-runtime";
import { rateLimitCaller } from "./rate-limit-caller";
import { readCachedResponse, responseCacheKey, type CachedResponse } from "./response-cache";

/**
 * A call's rate limit (and, for a cached endpoint, its cache lookup), started before the project's
 * generation is read, from the runtime this instance already holds. The key-value client pipelines
 * commands issued together, so the call then waits for one round trip to Redis instead of two or
 * three. The rate limit counts when the fresh runtime names the same endpoint (id and auth mode) and
 * the same caller, the cache lookup only when it also has the same version (the cache key); otherwise
 * the call does that work again, in order (a changed auth mode or a revoked key in between costs one
 * extra count in the old window, nothing else).
 */
export interface EarlyInvocationWork {
  /** The runtime the work was started from: while it is still the current one, so is the caller. */
  runtime: ProjectRuntime;
  /** callerFromRuntime's answer: no early work for callers it cannot tell (end users). */
  caller: InvocationCaller;
  endpointId: string;
  auth: EndpointAuthMode;
  rateHeaders: Promise<Record<string, string>>;
  cacheKey: string | null;
  cached: Promise<CachedResponse | null> | null;
}

/** Starts the early work, or answers null when this instance holds no runtime that names the endpoint and its caller. */
export function startEarlyInvocationWork(request: Request, url: URL, slug: string, runtime: ProjectRuntime | undefined): EarlyInvocationWork | null {
  if (!runtime || request.method === "OPTIONS") return null;
  const endpoint = runtime.routes.get(`${request.method} ${slug}`);
  if (!endpoint) return null;
  const { definition } = endpoint;
  const caller = callerFromRuntime(request, definition, runtime);
  if (caller === null) return null;
  const rateHeaders = rateLimitCaller({ endpointId: definition.id, auth: definition.auth, subject: caller.subject });
  // Awaited only when it still applies; a 429 for a call that then goes another way is dropped.
  rateHeaders.catch(() => undefined);
  const cacheKey = endpoint.cacheable ? responseCacheKey(definition.id, definition.version, url.search) : null;
  const cached = cacheKey === null ? null : readCachedResponse(cacheKey);
  cached?.catch(() => undefined);
  return { runtime, caller, endpointId: definition.id, auth: definition.auth, rateHeaders, cacheKey, cached };
}

/** Whether the early rate limit was counted for this endpoint and caller (its cache lookup also needs the same cache key). */
export function earlyWorkApplies(early: EarlyInvocationWork | null, definition: EndpointDefinition, subject: string): early is EarlyInvocationWork {
  return early !== null && early.endpointId === definition.id && early.auth === definition.auth && early.caller.subject === subject;
}
