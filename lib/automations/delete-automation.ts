import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

/** Deletes the automation; the generation bump stops its triggers on every instance. */
export async function deleteAutomation(options: { projectId: string; automationId: string }): Promise<void> {
  const db = await getPlatformDb();
  const deleted = await db
    .delete(automations)
    .where(and(eq(automations.id, options.automationId), eq(automations.projectId, options.projectId)))
    .returning({ id: automations.id });
  if (deleted.length === 0) throw new AppError("not_found", "automation not found");
  await bumpProjectGeneration(options.projectId);
}
