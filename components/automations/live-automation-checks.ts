import { automationInputSchema } from "@/lib/automations/automation-definition";
import type { ErrorIssue } from "@/lib/errors";
import { liveDefinitionIssues } from "@/components/endpoints/live-checks";
import { toAutomationInput, type AutomationDraft } from "./automation-draft";

/**
 * The automation's own fields (name, the chosen trigger's settings, retries) against the API's
 * schema as they are typed; steps are checked by the step list. Trigger and retry settings are
 * fields one level down (`trigger.cron`), so one left empty waits for Save like a top-level one.
 */
export function liveAutomationIssues(draft: AutomationDraft): ErrorIssue[] {
  return liveDefinitionIssues(automationInputSchema, toAutomationInput(draft), 2);
}
