import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { listAutomations } from "@/lib/automations/list-automations";
import { summarizeAutomationRuns, type AutomationRunSummary } from "@/lib/automations/summarize-automation-runs";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { TriggerBadge } from "@/components/automations/trigger-badge";
import { EnabledSwitch } from "@/components/endpoints/enabled-switch";
import { ImportExportButtons } from "@/components/endpoints/import-export";
import { OutcomeBadge, formatRunTime } from "@/components/endpoints/status-badges";
import { loadProject } from "../load-project";
import { exportAutomationsAction, importAutomationsAction, setAutomationEnabledAction } from "./actions";

export const metadata: Metadata = { title: "Automations" };

/** Last run and recent failures of one automation; "unavailable" when its project's database cannot be read. */
function RunSummary({ projectId, summary }: { projectId: string; summary: AutomationRunSummary | null }) {
  if (!summary) return <span className="text-xs text-slate-500">Run history unavailable</span>;
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
      {summary.lastRun ? (
        <span className="flex items-center gap-2">
          <span className="text-slate-500">Last run</span>
          <Link href={`/projects/${projectId}/executions/${summary.lastRun.executionId}`} className="text-indigo-600 hover:text-indigo-500">
            {formatRunTime(summary.lastRun.startedAt)}
          </Link>
          <OutcomeBadge outcome={summary.lastRun.outcome} />
        </span>
      ) : (
        <span className="text-slate-500">Not run yet</span>
      )}
      {summary.failuresLast24h > 0 ? (
        <span className="font-medium text-rose-700">{summary.failuresLast24h === 1 ? "1 failed run" : `${summary.failuresLast24h} failed runs`} in 24 h</span>
      ) : (
        <span className="text-slate-500">No failures in 24 h</span>
      )}
    </span>
  );
}

export default async function AutomationsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const automations = await listAutomations({ projectId });
  const runs = await summarizeAutomationRuns({ project: loaded.row, automationIds: automations.map((automation) => automation.id) });
  const newButton = (
    <ButtonLink href={`/projects/${projectId}/automations/new`} size="sm">
      New automation
    </ButtonLink>
  );
  return (
    <>
      <PageHeader
        crumbs={projectCrumbs(loaded, "Automations")}
        title="Automations"
        description="The same flows as endpoints, started by a form submission, a record change, a schedule or by hand."
        actions={
          <>
            <ImportExportButtons
              projectSlug={loaded.project.slug}
              noun="automations"
              exportAction={exportAutomationsAction.bind(null, projectId)}
              importAction={importAutomationsAction.bind(null, projectId)}
            />
            {newButton}
          </>
        }
      />
      {automations.length === 0 ? (
        <Card>
          <CardBody>
            <EmptyState
              title="No automations yet"
              description="Build one: choose what starts it (a form, a record change, a schedule or Run now), add steps such as Send email or Create record, and save."
              action={newButton}
            />
          </CardBody>
        </Card>
      ) : (
        <div className="space-y-4">
          {!runs.ok && (
            <Notice tone="warning">Run history is unavailable: the project&apos;s database could not be read ({runs.message}). The automations themselves are listed.</Notice>
          )}
          <Card aria-label="Automations">
            <ul className="divide-y divide-slate-100">
              {automations.map((automation) => {
                const editHref = `/projects/${projectId}/automations/${automation.id}`;
                return (
                  <li key={automation.id} aria-label={automation.name} className={automation.enabled ? "px-5 py-3" : "bg-slate-50/70 px-5 py-3"}>
                    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                      <div className="min-w-0 flex-1 space-y-1">
                        <Link href={editHref} className="block truncate text-sm font-medium text-slate-900 hover:text-indigo-600">
                          {automation.name}
                        </Link>
                        <TriggerBadge trigger={automation.trigger} />
                      </div>
                      <EnabledSwitch enabled={automation.enabled} label={`Enabled: ${automation.name}`} action={setAutomationEnabledAction.bind(null, projectId, automation.id)} />
                      <Link href={`${editHref}/runs`} className="text-sm font-medium text-indigo-600 hover:text-indigo-500" aria-label={`Runs of ${automation.name}`}>
                        Runs
                      </Link>
                      <Link href={editHref} className="text-sm font-medium text-indigo-600 hover:text-indigo-500" aria-label={`Edit ${automation.name}`}>
                        Edit
                      </Link>
                    </div>
                    <div className="mt-2">
                      <RunSummary projectId={projectId} summary={runs.ok ? (runs.byAutomation.get(automation.id) ?? null) : null} />
                    </div>
                  </li>
                );
              })}
            </ul>
          </Card>
        </div>
      )}
    </>
  );
}
