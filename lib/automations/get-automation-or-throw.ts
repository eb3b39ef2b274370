import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import type { AutomationDefinition } from "./automation-definition";
import { toAutomationDefinition } from "./automation-row";

/** The automation of this project; 404 `automation not found` for an unknown id or another project's. */
export async function getAutomationOrThrow(options: { projectId: string; automationId: string }): Promise<AutomationDefinition> {
  const db = await getPlatformDb();
  const [row] = await db
    .select()
    .from(automations)
    .where(and(eq(automations.id, options.automationId), eq(automations.projectId, options.projectId)))
    .limit(1);
  if (!row) throw new AppError("not_found", "automation not found");
  return toAutomationDefinition(row);
}
