import { asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projectSecrets } from "@/lib/platform-db/schema";
import type { SecretSummary } from "./secret-input";

/** A project's secrets by name: names, hints and dates, never values or envelopes. */
export async function listSecrets(options: { projectId: string }): Promise<SecretSummary[]> {
  const db = await getPlatformDb();
  return db
    .select({ name: projectSecrets.name, hint: projectSecrets.hint, createdAt: projectSecrets.createdAt, updatedAt: projectSecrets.updatedAt })
    .from(projectSecrets)
    .where(eq(projectSecrets.projectId, options.projectId))
    .orderBy(asc(projectSecrets.name));
}
