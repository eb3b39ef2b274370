import { AppError } from "@/lib/errors";
import { authenticateApiKey, findLiveApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { verifyEndUserToken } from "@/lib/end-users/verify-end-user-token";
import { getClientIp } from "@/lib/http/client-ip";
import { readBearerToken } from "@/lib/http/authenticate-request";
import type { EndpointDefinition } from "../endpoint-definition";
import type { ProjectRuntime } from "./project-runtime";

export interface InvocationCaller {
  /** Who the rate limit counts: the client IP, the API key or the end user. */
  subject: string;
  /** The end-user profile on end_user endpoints (no secrets), else null. */
  user: Record<string, unknown> | null;
}

function unauthorized(message: string): AppError {
  return new AppError("unauthorized", message, { headers: { "www-authenticate": "Bearer" } });
}

/**
 * The caller as far as the runtime alone tells, without waiting: the client IP on public endpoints,
 * a live key of this runtime (of this project, with endpoints.invoke) on API key endpoints. Null
 * when it takes more: an end user's token, a key the runtime does not hold, or a refusal, whose
 * reason authenticateCaller gives.
 */
export function callerFromRuntime(request: Request, endpoint: EndpointDefinition, runtime: ProjectRuntime): InvocationCaller | null {
  if (endpoint.auth === "public") return { subject: `ip:${getClientIp(request)}`, user: null };
  if (endpoint.auth !== "api_key") return null;
  const token = readBearerToken(request);
  const key = token ? findLiveApiKey(token, runtime.apiKeys) : null;
  return key && key.projectId === endpoint.projectId && key.permissions.includes("endpoints.invoke") ? { subject: `key:${key.id}`, user: null } : null;
}

/**
 * The endpoint's auth mode: public (by IP), API key of this project with endpoints.invoke, or a
 * logged-in end user. `known` is callerFromRuntime's answer when the caller already has it for this
 * runtime.
 */
export async function authenticateCaller(
  request: Request,
  endpoint: EndpointDefinition,
  runtime: ProjectRuntime,
  known: InvocationCaller | null = callerFromRuntime(request, endpoint, runtime),
): Promise<InvocationCaller> {
  if (known) return known;
  const token = readBearerToken(request);
  if (!token) throw unauthorized("authentication required");
  if (endpoint.auth === "api_key") {
    const key = await authenticateApiKey(token, runtime.apiKeys);
    // A key of another project is as good as no key here.
    if (!key || key.projectId !== endpoint.projectId) throw unauthorized("invalid or revoked API key");
    if (!key.permissions.includes("endpoints.invoke")) throw new AppError("forbidden", "the API key lacks the permission endpoints.invoke");
    return { subject: `key:${key.id}`, user: null };
  }
  const user = await verifyEndUserToken({
    projectId: endpoint.projectId,
    schema: endpoint.authSchema ?? "",
    token,
    schemas: runtime.schemas,
    store: runtime.store,
  });
  return { subject: `user:${String(user.id)}`, user };
}
