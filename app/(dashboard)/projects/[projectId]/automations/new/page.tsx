import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { AutomationEditor } from "@/components/automations/automation-editor";
import { loadAutomationEditorContext } from "../../_data/load-automation-editor-context";
import { loadProject } from "../../load-project";
import { createAutomationAction } from "../actions";

export const metadata: Metadata = { title: "New automation" };

export default async function NewAutomationPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const { schemas, emailTemplates, timeZones } = await loadAutomationEditorContext(projectId);
  const crumbs = projectCrumbs(loaded, "Automations");
  crumbs[crumbs.length - 1] = { label: "Automations", href: `/projects/${projectId}/automations` };
  return (
    <>
      <PageHeader crumbs={[...crumbs, { label: "New" }]} title="New automation" description="Save it to get a form's URL and to run it." />
      <AutomationEditor
        projectId={projectId}
        automationId={null}
        initial={null}
        schemas={schemas}
        emailTemplates={emailTemplates}
        timeZones={timeZones}
        savedForm={null}
        save={createAutomationAction.bind(null, projectId)}
      />
    </>
  );
}
