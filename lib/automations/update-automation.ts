import { and, eq, sql } from "drizzle-orm";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { automationPatchSchema } from "./automation-definition";
import { toAutomationColumns, toAutomationDefinition, toAutomationInput } from "./automation-row";
import { rethrowDuplicateForm, type SavedAutomation } from "./create-automation";
import { getAutomationOrThrow } from "./get-automation-or-throw";
import { validateAutomationOrThrow } from "./validate-automation";

/**
 * Partial update (`{"enabled": false}` too; a trigger given is replaced whole). The merged
 * definition is validated as a whole, the version goes up, and the project's generation is bumped
 * so every instance's triggers (forms, record events, schedules) follow the change at once.
 */
export async function updateAutomation(options: { projectId: string; automationId: string; patch: unknown }): Promise<SavedAutomation> {
  const patch = automationPatchSchema.safeParse(options.patch);
  if (!patch.success) throw new AppError("validation_failed", "invalid automation", { issues: issuesFromZod(patch.error) });
  const current = await getAutomationOrThrow(options);
  const input = await validateAutomationOrThrow({ projectId: options.projectId, input: { ...toAutomationInput(current), ...patch.data } });
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .update(automations)
      .set({ ...toAutomationColumns(input), version: sql`${automations.version} + 1`, updatedAt: new Date() })
      .where(and(eq(automations.id, options.automationId), eq(automations.projectId, options.projectId)))
      .returning();
    if (!row) throw new AppError("not_found", "automation not found");
    await bumpProjectGeneration(options.projectId);
    return { ...toAutomationDefinition(row), warnings: input.warnings };
  } catch (error) {
    rethrowDuplicateForm(error, input);
  }
}
