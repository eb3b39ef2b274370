import type { AutomationRetry, FormTrigger } from "@/lib/automations/automation-definition";
import { getProjectRuntime, type ProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";

export interface FormTarget {
  runtime: ProjectRuntime;
  automationId: string;
  trigger: FormTrigger;
  retry: AutomationRetry;
}

/**
 * The enabled form automation a public post addresses, from the project runtime cache (no platform
 * database read per submission); null for an unknown project, an unknown form or a disabled one.
 */
export async function findFormAutomation(options: { projectId: string; form: string }): Promise<FormTarget | null> {
  const runtime = await getProjectRuntime(options.projectId);
  const automation = runtime?.automations.forms.get(options.form);
  if (!runtime || !automation || !automation.definition.enabled) return null;
  const trigger = automation.definition.trigger;
  if (trigger.type !== "form") return null;
  return { runtime, automationId: automation.definition.id, trigger, retry: automation.definition.retry };
}
