import type { automations } from "@/lib/platform-db/schema";
import { automationTriggerSchema, DEFAULT_BACKOFF_SECONDS, type AutomationDefinition, type AutomationInput, type AutomationTrigger } from "./automation-definition";

export type AutomationRow = typeof automations.$inferSelect;

/** Stored triggers were validated on save; parsing again fills defaults added since. */
function storedTrigger(value: unknown): AutomationTrigger {
  const parsed = automationTriggerSchema.safeParse(value);
  return parsed.success ? parsed.data : { type: "manual" };
}

export function toAutomationDefinition(row: AutomationRow): AutomationDefinition {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    enabled: row.enabled,
    trigger: storedTrigger(row.trigger),
    steps: row.steps,
    retry: { attempts: row.retry?.attempts ?? 0, backoffSeconds: row.retry?.backoffSeconds ?? DEFAULT_BACKOFF_SECONDS },
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The columns an input sets (the form column indexes the form trigger's slug). */
export function toAutomationColumns(input: AutomationInput): Pick<AutomationRow, "name" | "enabled" | "trigger" | "steps" | "retry" | "form"> {
  return {
    name: input.name,
    enabled: input.enabled,
    trigger: input.trigger as Record<string, unknown>,
    steps: input.steps,
    retry: input.retry,
    form: input.trigger.type === "form" ? input.trigger.form : null,
  };
}

/** The portable shape (export/import, the editor): the definition without server-assigned fields. */
export function toAutomationInput(definition: AutomationDefinition): AutomationInput {
  const { id: _id, projectId: _projectId, version: _version, createdAt: _createdAt, updatedAt: _updatedAt, ...input } = definition;
  return input;
}
