import { secretNamesInValue } from "@/lib/flow/secret-references";
import type { AutomationInput } from "./automation-definition";
import { toAutomationInput } from "./automation-row";
import { listAutomations } from "./list-automations";

export interface AutomationsExport {
  format: "flowpoint.automations";
  version: 1;
  exportedAt: string;
  automations: AutomationInput[];
  /** Names of the project secrets the automations use (`{{secrets.NAME}}`); values never leave the project. */
  secrets: string[];
}

/** A project's automations as portable JSON (the API's shape without server-assigned fields), for git or another project. */
export async function exportAutomations(options: { projectId: string }): Promise<AutomationsExport> {
  const automations = (await listAutomations(options)).map(toAutomationInput);
  return { format: "flowpoint.automations", version: 1, exportedAt: new Date().toISOString(), automations, secrets: secretNamesInValue(automations) };
}
