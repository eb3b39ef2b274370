import { cache } from "react";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import type { AutomationDefinition } from "@/lib/automations/automation-definition";
import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import type { Crumb } from "@/components/ui/page-header";
import { loadProject, type LoadedProject } from "../../load-project";

/** The automation a page shows, after the membership check; a missing one (or another project's) is a 404. */
export const loadAutomation = cache(async (projectId: string, automationId: string): Promise<{ loaded: LoadedProject; automation: AutomationDefinition; crumbs: Crumb[] }> => {
  const loaded = await loadProject(projectId);
  const automation = await getAutomationOrThrow({ projectId: loaded.project.id, automationId }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  const crumbs = projectCrumbs(loaded, "Automations");
  crumbs[crumbs.length - 1] = { label: "Automations", href: `/projects/${projectId}/automations` };
  crumbs.push({ label: automation.name });
  return { loaded, automation, crumbs };
});
