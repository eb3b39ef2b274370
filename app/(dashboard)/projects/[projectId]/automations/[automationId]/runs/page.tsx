import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { AutomationTabs } from "@/components/automations/automation-tabs";
import { RunAgainButton } from "@/components/automations/run-again-button";
import { TriggerBadge } from "@/components/automations/trigger-badge";
import { ExecutionList } from "@/components/endpoints/execution-list";
import { loadExecutions, type SearchParams } from "../../../_data/load-executions";
import { formatRunTime } from "@/components/endpoints/status-badges";
import { findReplayPayload } from "@/lib/automations/replay-payload";
import { runAutomationAgainAction } from "../../actions";
import { loadAutomation } from "../load-automation";

type Props = { params: Promise<{ projectId: string; automationId: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { projectId, automationId } = await params;
  const { automation } = await loadAutomation(projectId, automationId);
  return { title: `Runs of ${automation.name}` };
}

export default async function AutomationRunsPage({ params, searchParams }: Props) {
  const { projectId, automationId } = await params;
  const { loaded, automation, crumbs } = await loadAutomation(projectId, automationId);
  const result = await loadExecutions({ project: loaded.row, automationId: automation.id, searchParams: await searchParams });
  const failed = result.ok ? result.entries.filter((entry) => entry.outcome === "failed") : [];
  const replays = new Map(await Promise.all(failed.map(async (entry) => [entry.id, await findReplayPayload({ projectId, entry })] as const)));
  return (
    <>
      <PageHeader crumbs={crumbs} title={automation.name} description={<TriggerBadge trigger={automation.trigger} />} />
      <AutomationTabs projectId={projectId} automationId={automation.id} form={automation.trigger.type === "form"} active="runs" />
      <ExecutionList
        projectId={projectId}
        path={`/projects/${projectId}/automations/${automation.id}/runs`}
        entries={result.ok ? result.entries : []}
        nextBefore={result.ok ? result.nextBefore : null}
        filters={result.filters}
        endpointLabels={result.endpointLabels}
        problem={result.ok ? undefined : result.message}
        variant="automation"
        emptyDescription={`Every run of this automation is logged here step by step, newest first, for ${loaded.project.logRetentionDays} days.`}
        actions={(entry) => {
          const replay = replays.get(entry.id);
          if (!replay) return null;
          return (
            <RunAgainButton
              projectId={projectId}
              label={`run of ${formatRunTime(entry.startedAt)}`}
              disabledReason={replay.ok ? null : replay.reason}
              action={runAutomationAgainAction.bind(null, projectId, automation.id, entry.id)}
            />
          );
        }}
      />
    </>
  );
}
