import { AppError } from "@/lib/errors";
import { authenticateApiKey, type AuthenticatedApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { getSessionUserId } from "@/lib/auth/session";
import type { Permission } from "@/lib/auth/permissions";

export type RequestActor = { type: "api_key"; keyId: string; projectId: string; permissions: Permission[] } | { type: "user"; userId: string };

export function readBearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

/**
 * An `Authorization: Bearer` API key, or else the dashboard session cookie. A presented but invalid
 * key is a 401 even when a session cookie is also present: callers never fall back silently.
 * `projectKeys`: the live keys of the project named in the URL, when the caller has them cached.
 */
export async function authenticateRequest(request: Request, projectKeys?: ReadonlyMap<string, AuthenticatedApiKey>): Promise<RequestActor> {
  const bearer = readBearerToken(request);
  if (bearer !== null) {
    const key = bearer ? await authenticateApiKey(bearer, projectKeys) : null;
    if (!key) throw new AppError("unauthorized", "invalid or revoked API key", { headers: { "www-authenticate": "Bearer" } });
    return { type: "api_key", keyId: key.id, projectId: key.projectId, permissions: key.permissions };
  }
  const userId = await getSessionUserId(request);
  if (!userId) throw new AppError("unauthorized", "authentication required", { headers: { "www-authenticate": "Bearer" } });
  return { type: "user", userId };
}
