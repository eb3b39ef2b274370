import type { Metadata } from "next";
import { toAutomationInput } from "@/lib/automations/automation-row";
import { PageHeader } from "@/components/ui/page-header";
import { toAutomationDraft } from "@/components/automations/automation-draft";
import { AutomationEditor } from "@/components/automations/automation-editor";
import { AutomationTabs } from "@/components/automations/automation-tabs";
import { DeleteAutomationButton } from "@/components/automations/delete-automation-button";
import { formActionUrl, formSnippet } from "@/components/automations/form-snippet";
import { loadAutomationEditorContext } from "../../_data/load-automation-editor-context";
import { loadReplayRequest, replayParam, replayProps } from "../../_data/load-replay-request";
import { TriggerBadge } from "@/components/automations/trigger-badge";
import { deleteAutomationAction, runAutomationNowAction, updateAutomationAction } from "../actions";
import { loadAutomation } from "./load-automation";

type Params = { params: Promise<{ projectId: string; automationId: string }> };
type PageProps = Params & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { projectId, automationId } = await params;
  const { automation } = await loadAutomation(projectId, automationId);
  return { title: automation.name };
}

export default async function EditAutomationPage({ params, searchParams }: PageProps) {
  const { projectId, automationId } = await params;
  const { automation, crumbs } = await loadAutomation(projectId, automationId);
  const replayId = replayParam(await searchParams);
  const [{ schemas, emailTemplates, timeZones, formsBase }, replay] = await Promise.all([
    loadAutomationEditorContext(projectId),
    replayId ? loadReplayRequest({ projectId, executionId: replayId }) : null,
  ]);
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
      <AutomationEditor
        projectId={projectId}
        automationId={automation.id}
        initial={toAutomationDraft(toAutomationInput(automation))}
        schemas={schemas}
        emailTemplates={emailTemplates}
        timeZones={timeZones}
        savedForm={savedForm}
        save={updateAutomationAction.bind(null, projectId, automation.id)}
        runNow={runAutomationNowAction.bind(null, projectId, automation.id)}
        {...replayProps(replay)}
      />
    </>
  );
}
