import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";

/**
 * Revocation is a column in the platform database, which every instance reads on each
 * authentication: it takes effect at once everywhere. Revoking twice is not an error.
 */
export async function revokeApiKey(options: { projectId: string; keyId: string }): Promise<{ id: string; revokedAt: Date }> {
  const db = await getPlatformDb();
  const scope = and(eq(apiKeys.id, options.keyId), eq(apiKeys.projectId, options.projectId));
  const [updated] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(scope, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, revokedAt: apiKeys.revokedAt });
  if (updated?.revokedAt) return { id: updated.id, revokedAt: updated.revokedAt };
  const [existing] = await db.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(scope);
  if (!existing?.revokedAt) throw new AppError("not_found", "API key not found");
  return { id: existing.id, revokedAt: existing.revokedAt };
}
