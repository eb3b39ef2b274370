import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import type { AutomationDefinition, FormTrigger } from "@/lib/automations/automation-definition";
import { AppError, isAppError } from "@/lib/errors";

/**
 * A form automation of the project, enabled or not (its submissions stay readable while it is
 * off). 404 when the id is unknown, of another project, or the automation has another trigger.
 */
export async function getFormAutomationOrThrow(options: { projectId: string; automationId: string }): Promise<AutomationDefinition & { trigger: FormTrigger }> {
  const notFound = () => new AppError("not_found", "form automation not found");
  const definition = await getAutomationOrThrow(options).catch((error: unknown) => {
    throw isAppError(error) && error.code === "not_found" ? notFound() : error;
  });
  if (definition.trigger.type !== "form") throw notFound();
  return definition as AutomationDefinition & { trigger: FormTrigger };
}
