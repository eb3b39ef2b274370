import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projectSecrets } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

/** Deletes a secret (404 when there is none). Flows that still name it fail at run time, naming it. */
export async function deleteSecret(options: { projectId: string; name: string }): Promise<void> {
  const db = await getPlatformDb();
  const deleted = await db
    .delete(projectSecrets)
    .where(and(eq(projectSecrets.projectId, options.projectId), eq(projectSecrets.name, options.name)))
    .returning({ id: projectSecrets.id });
  if (deleted.length === 0) throw new AppError("not_found", "secret not found");
  await bumpProjectGeneration(options.projectId);
}
