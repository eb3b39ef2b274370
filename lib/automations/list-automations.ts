import { asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import type { AutomationDefinition } from "./automation-definition";
import { toAutomationDefinition } from "./automation-row";

/** A project's automations, enabled or not, ordered by name (then creation, for equal names). */
export async function listAutomations(options: { projectId: string }): Promise<AutomationDefinition[]> {
  const db = await getPlatformDb();
  const rows = await db.select().from(automations).where(eq(automations.projectId, options.projectId)).orderBy(asc(automations.name), asc(automations.id));
  return rows.map(toAutomationDefinition);
}
