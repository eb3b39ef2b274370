import { timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";
import { isPermission, type Permission } from "@/lib/auth/permissions";
import { hashApiKey, isWellFormedApiKey } from "./api-key-format";
import { recordApiKeyUse } from "./record-api-key-use";

export interface AuthenticatedApiKey {
  id: string;
  projectId: string;
  permissions: Permission[];
}

export function toAuthenticatedApiKey(row: { id: string; projectId: string; permissions: string[] }): AuthenticatedApiKey {
  return { id: row.id, projectId: row.projectId, permissions: row.permissions.filter(isPermission) };
}

function usedKey(key: AuthenticatedApiKey): AuthenticatedApiKey {
  recordApiKeyUse(key.id);
  return key;
}

/**
 * A presented key among the live keys of the project the call is for (its runtime), synchronously
 * and without a platform read; null when it is malformed or not there (authenticateApiKey then
 * looks further).
 */
export function findLiveApiKey(presented: string, projectKeys: ReadonlyMap<string, AuthenticatedApiKey>): AuthenticatedApiKey | null {
  if (!isWellFormedApiKey(presented)) return null;
  const known = projectKeys.get(hashApiKey(presented));
  return known ? usedKey(known) : null;
}

/**
 * Resolves a presented key to its project and permissions, or null when it is malformed, unknown or
 * revoked. `projectKeys` are the live keys of the project the call is for, by hash (its runtime,
 * lib/endpoints/invoke/project-runtime.ts): a key found there needs no platform read. Anything else
 * is looked up by hash (an index), then compared in constant time.
 */
export async function authenticateApiKey(presented: string, projectKeys?: ReadonlyMap<string, AuthenticatedApiKey>): Promise<AuthenticatedApiKey | null> {
  if (!isWellFormedApiKey(presented)) return null;
  const hash = hashApiKey(presented);
  const known = projectKeys?.get(hash);
  if (known) return usedKey(known);
  const db = await getPlatformDb();
  const [row] = await db
    .select({ id: apiKeys.id, projectId: apiKeys.projectId, keyHash: apiKeys.keyHash, permissions: apiKeys.permissions, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, hash))
    .limit(1);
  if (!row || row.revokedAt) return null;
  if (!timingSafeEqual(Buffer.from(row.keyHash, "hex"), Buffer.from(hash, "hex"))) return null;
  return usedKey(toAuthenticatedApiKey(row));
}
