import { desc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys } from "@/lib/platform-db/schema";

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  lastFour: string;
  permissions: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A project's keys, newest first. Never the key itself or its hash. */
export async function listApiKeys(options: { projectId: string }): Promise<ApiKeySummary[]> {
  const db = await getPlatformDb();
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      lastFour: apiKeys.lastFour,
      permissions: apiKeys.permissions,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.projectId, options.projectId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}
