import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

/**
 * Revocation is a column in the platform database. Instances cache a project's live keys in its
 * runtime, which the generation bump refreshes on every instance at their next call; while the
 * shared key-value store is unreachable, other instances notice within the runtime's age limit
 * (30 s). Revoking twice is not an error.
 */
export async function revokeApiKey(options: { projectId: string; keyId: string }): Promise<{ id: string; revokedAt: Date }> {
  const db = await getPlatformDb();
  const scope = and(eq(apiKeys.id, options.keyId), eq(apiKeys.projectId, options.projectId));
  const [updated] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(scope, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, revokedAt: apiKeys.revokedAt });
  if (updated?.revokedAt) {
    await bumpProjectGeneration(options.projectId);
    return { id: updated.id, revokedAt: updated.revokedAt };
  }
  const [existing] = await db.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(scope);
  if (!existing?.revokedAt) throw new AppError("not_found", "API key not found");
  return { id: existing.id, revokedAt: existing.revokedAt };
}
