import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import type { AutomationDefinition, AutomationInput } from "./automation-definition";
import { toAutomationColumns, toAutomationDefinition } from "./automation-row";
import type { TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import { validateAutomationOrThrow } from "./validate-automation";

/** A saved automation as the create and update services answer it: the definition plus its placeholder warnings (empty when none). */
export type SavedAutomation = AutomationDefinition & { warnings: TemplateWarning[] };

/** 409 for a form slug another automation of the project already answers (the only unique key). */
export function duplicateFormError(form: string, path = "trigger.form"): AppError {
  return new AppError("conflict", `a form named "${form}" already exists in this project`, {
    field: "trigger.form",
    issues: [{ path, message: `the form "${form}" is already taken` }],
  });
}

/** The unique violation of an insert or update, as the answer says it (only the form slug is unique). */
export function rethrowDuplicateForm(error: unknown, input: AutomationInput, path?: string): never {
  if (isUniqueViolation(error) && input.trigger.type === "form") throw duplicateFormError(input.trigger.form, path);
  throw error;
}

/** Validates and stores a new automation (answered 201); the project's runtime picks it up on its next read. */
export async function createAutomation(options: { projectId: string; input: unknown }): Promise<SavedAutomation> {
  const input = await validateAutomationOrThrow(options);
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .insert(automations)
      .values({ id: newId("automation"), projectId: options.projectId, ...toAutomationColumns(input) })
      .returning();
    await bumpProjectGeneration(options.projectId);
    return { ...toAutomationDefinition(row!), warnings: input.warnings };
  } catch (error) {
    rethrowDuplicateForm(error, input);
  }
}
