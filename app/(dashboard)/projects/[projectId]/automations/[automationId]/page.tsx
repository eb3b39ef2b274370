import type { Metadata } from "next";
import { toAutomationInput } from "@/lib/automations/automation-row";
import { PageHeader } from "@/components/ui/page-header";
import { toAutomationDraft } from "@/components/automations/automation-draft";
import { AutomationEditor } from "@/components/automations/automation-editor";
import { AutomationTabs } from "@/components/automations/automation-tabs";
import { DeleteAutomationButton } from "@/components/automations/delete-automation-button";
import { formActionUrl, formSnippet } from "@/components/automations/form-snippet";
import { loadAutomationEditorContext } from "../../_data/load-automation-editor-context";
import { RunNowPanel } from "@/components/automations/run-now-panel";
import { TriggerBadge } from "@/components/automations/trigger-badge";
import { deleteAutomationAction, runAutomationNowAction, updateAutomationAction } from "../actions";
import { loadAutomation } from "./load-automation";

type Params = { params: Promise<{ projectId: string; automationId: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { projectId, automationId } = await params;
  const { automation } = await loadAutomation(projectId, automationId);
  return { title: automation.name };
}

export default async function EditAutomationPage({ params }: Params) {
  const { projectId, automationId } = await params;
  const { automation, crumbs } = await loadAutomation(projectId, automationId);
  const { schemas, emailTemplates, timeZones, formsBase } = await loadAutomationEditorContext(projectId);
  const { trigger } = automation;
  const savedForm =
    trigger.type === "form"
      ? { form: trigger.form, url: formActionUrl(formsBase, trigger.form), snippet: formSnippet({ actionUrl: formActionUrl(formsBase, trigger.form), honeypot: trigger.honeypot }) }
      : null;
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title={automation.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <TriggerBadge trigger={trigger} />
            <span>
              · Version {automation.version}
              {automation.enabled ? "" : " · disabled"}
            </span>
          </span>
        }
        actions={<DeleteAutomationButton projectId={projectId} name={automation.name} action={deleteAutomationAction.bind(null, projectId, automation.id)} />}
      />
      <AutomationTabs projectId={projectId} automationId={automation.id} form={trigger.type === "form"} active="editor" />
      <div className="space-y-6">
        <AutomationEditor
          projectId={projectId}
          automationId={automation.id}
          initial={toAutomationDraft(toAutomationInput(automation))}
          schemas={schemas}
          emailTemplates={emailTemplates}
          timeZones={timeZones}
          savedForm={savedForm}
          save={updateAutomationAction.bind(null, projectId, automation.id)}
        />
        <RunNowPanel projectId={projectId} triggerType={trigger.type} run={runAutomationNowAction.bind(null, projectId, automation.id)} />
      </div>
    </>
  );
}
