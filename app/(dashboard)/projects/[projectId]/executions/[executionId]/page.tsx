import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { getEndpointOrThrow } from "@/lib/endpoints/get-endpoint-or-throw";
import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { STEP_DEFINITIONS } from "@/lib/flow/steps/registry";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { MethodBadge, OutcomeBadge, StepStatusBadge, formatDuration, formatRunTime } from "@/components/endpoints/status-badges";
import { StepWaterfall } from "@/components/endpoints/step-waterfall";
import { loadProject } from "../../load-project";

type Params = { params: Promise<{ projectId: string; executionId: string }> };

export const metadata: Metadata = { title: "Execution" };

/** JSON text pretty-printed; anything else (a capped preview, plain text) as it is. */
function prettyText(text: string | null | undefined): string {
  if (text === null || text === undefined) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The editor that can replay this run (`?replay=`): its endpoint's or automation's, or a new
 * endpoint's for a test run of an unsaved draft or a call of a deleted endpoint. None when the log
 * kept no request, or the automation is gone (an automation's flow cannot be rebuilt from its runs).
 */
function replayEditorHref(options: { projectId: string; entry: ExecutionLogEntry; endpointId: string | null; automationId: string | null }): string | null {
  const { projectId, entry } = options;
  if (!entry.request) return null;
  const replay = `?replay=${encodeURIComponent(entry.id)}`;
  if (entry.source === "automation") return options.automationId ? `/projects/${projectId}/automations/${options.automationId}${replay}` : null;
  return `/projects/${projectId}/endpoints/${options.endpointId ?? "new"}${replay}`;
}

export default async function ExecutionPage({ params }: Params) {
  const { projectId, executionId } = await params;
  const loaded = await loadProject(projectId);
  const crumbs = projectCrumbs(loaded, "Executions");
  crumbs[crumbs.length - 1] = { label: "Executions", href: `/projects/${projectId}/executions` };
  let entry: ExecutionLogEntry;
  try {
    const store = await getProjectRecordStore({ project: loaded.row });
    entry = await getExecutionOrThrow({ store, executionId });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    if (isAppError(error) && error.isPublic) {
      return (
        <>
          <PageHeader crumbs={[...crumbs, { label: executionId }]} title="Execution" />
          <Notice tone="warning">The execution log could not be read: {error.message}.</Notice>
        </>
      );
    }
    throw error;
  }
  const endpoint = entry.endpointId ? await getEndpointOrThrow({ projectId, endpointId: entry.endpointId }).catch(() => null) : null;
  const automation = entry.automationId ? await getAutomationOrThrow({ projectId, automationId: entry.automationId }).catch(() => null) : null;
  const method = entry.method ?? endpoint?.method;
  const slug = entry.slug ?? endpoint?.slug;
  const replayHref = replayEditorHref({ projectId, entry, endpointId: endpoint?.id ?? null, automationId: automation?.id ?? null });

  return (
    <>
      <PageHeader
        crumbs={[...crumbs, { label: entry.id }]}
        title={
          <span className="flex items-center gap-3">
            <span>{entry.source === "test_run" ? "Test run" : entry.source === "automation" ? "Automation run" : "Endpoint call"}</span>
            <OutcomeBadge outcome={entry.outcome} />
          </span>
        }
        description={formatRunTime(entry.startedAt)}
        actions={
          replayHref && (
            <ButtonLink href={replayHref} variant="secondary" size="sm" title="Load this run's request into the editor's test panel (secrets stay masked)">
              Open in editor
            </ButtonLink>
          )
        }
      />
      <div className="space-y-6">
        <Card>
          <CardBody>
            <dl className="grid gap-4 text-sm sm:grid-cols-4">
              {entry.source === "automation" ? (
                <div>
                  <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Automation</dt>
                  <dd className="mt-1">
                    {automation ? (
                      <Link href={`/projects/${projectId}/automations/${automation.id}/runs`} className="text-indigo-700 hover:text-indigo-600">
                        {automation.name}
                      </Link>
                    ) : (
                      <span className="text-slate-600">Deleted automation</span>
                    )}
                    <span className="mt-0.5 block text-xs text-slate-600">
                      {entry.trigger ?? "—"} trigger · attempt {entry.attempt ?? 1}
                      {entry.afterInterruption ? " · re-run after its worker stopped" : ""}
                      {entry.retryOf ? (
                        <>
                          {" · repeats "}
                          <Link href={`/projects/${projectId}/executions/${entry.retryOf}`} className="font-mono text-indigo-700 hover:text-indigo-600">
                            {entry.retryOf}
                          </Link>
                        </>
                      ) : null}
                    </span>
                  </dd>
                </div>
              ) : (
                <div>
                  <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Endpoint</dt>
                  <dd className="mt-1 flex items-center gap-2">
                    {method && slug ? (
                      <>
                        <MethodBadge method={method} className="w-auto" />
                        {endpoint ? (
                          <Link href={`/projects/${projectId}/endpoints/${endpoint.id}/executions`} className="font-mono text-xs text-indigo-600 hover:text-indigo-500">
                            /{slug}
                          </Link>
                        ) : (
                          <span className="font-mono text-xs">/{slug}</span>
                        )}
                      </>
                    ) : (
                      <span className="text-slate-500">{entry.source === "test_run" ? "Unsaved draft" : "—"}</span>
                    )}
                  </dd>
                </div>
              )}
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Answered</dt>
                <dd className="mt-1 font-mono">{entry.httpStatus ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Duration</dt>
                <dd className="mt-1 tabular-nums">{formatDuration(entry.durationMs)}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Execution ID</dt>
                <dd className="mt-1 flex items-center gap-2">
                  <code className="truncate font-mono text-xs">{entry.id}</code>
                  <CopyButton value={entry.id} label="Copy" />
                </dd>
              </div>
            </dl>
            {entry.error && <p className="mt-4 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">{entry.error}</p>}
          </CardBody>
        </Card>

        {entry.steps.length > 0 && (
          <Card aria-labelledby="timeline-heading">
            <CardHeader
              title={<span id="timeline-heading">Timeline</span>}
              description={`Each step's start and duration within the run's ${formatDuration(entry.durationMs)}; steps run one after another.`}
            />
            <StepWaterfall steps={entry.steps} totalMs={entry.durationMs} />
          </Card>
        )}

        <Card aria-labelledby="steps-heading">
          <CardHeader title={<span id="steps-heading">Steps</span>} description="Outputs are previews: redacted (secrets masked) and capped." />
          {entry.steps.length === 0 ? (
            <CardBody>
              <p className="text-sm text-slate-500">The flow has no steps.</p>
            </CardBody>
          ) : (
            <ol className="divide-y divide-slate-100">
              {entry.steps.map((step) => (
                <li key={step.index} aria-label={`Step ${step.index + 1}`} className="px-5 py-3">
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <span className="grid size-6 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600">{step.index + 1}</span>
                    <span className="font-medium text-slate-900">{STEP_DEFINITIONS[step.type]?.label ?? step.type}</span>
                    {step.name && <code className="font-mono text-xs text-slate-500">steps.{step.name}</code>}
                    <span className="ml-auto flex items-center gap-2">
                      <span className="text-xs tabular-nums text-slate-500">{formatDuration(step.durationMs)}</span>
                      <StepStatusBadge status={step.status} />
                    </span>
                  </div>
                  {step.error && (
                    <p
                      className={
                        step.status === "stopped"
                          ? "mt-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950"
                          : "mt-2 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800"
                      }
                    >
                      {step.error}
                    </p>
                  )}
                  {step.outputPreview !== null && (
                    <CodeBlock
                      label={`Output of step ${step.index + 1}`}
                      className="mt-2 max-h-72 rounded-md bg-slate-50 px-3 py-2 text-slate-800 ring-1 ring-slate-200 ring-inset"
                    >
                      {prettyText(step.outputPreview)}
                    </CodeBlock>
                  )}
                </li>
              ))}
            </ol>
          )}
        </Card>

        <Card>
          <CardHeader title="Request" description={entry.request ? "As received (secrets masked)." : undefined} />
          <CardBody>
            {entry.request ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <div>
                  <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Query</h3>
                  <CodeBlock label="Request query" className="mt-1 max-h-72 rounded-md bg-slate-50 px-3 py-2 text-slate-800 ring-1 ring-slate-200 ring-inset">
                    {JSON.stringify(entry.request.query ?? {}, null, 2)}
                  </CodeBlock>
                </div>
                <div>
                  <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Body</h3>
                  {entry.request.body ? (
                    <CodeBlock label="Request body" className="mt-1 max-h-72 rounded-md bg-slate-50 px-3 py-2 text-slate-800 ring-1 ring-slate-200 ring-inset">
                      {prettyText(entry.request.body)}
                    </CodeBlock>
                  ) : (
                    <p className="mt-1 text-sm text-slate-500">
                      <Badge>empty</Badge>
                    </p>
                  )}
                </div>
              </div>
            ) : (
              <p className="text-sm text-slate-500">No request was recorded for this run.</p>
            )}
          </CardBody>
        </Card>

        {entry.source !== "automation" && <ResponseCard entry={entry} />}
      </div>
    </>
  );
}

/** The answer the caller got, as the log kept it (entries logged before responses were kept have none). */
function ResponseCard({ entry }: { entry: ExecutionLogEntry }) {
  const response = entry.response;
  const headers = response ? Object.entries(response.headers) : [];
  return (
    <Card aria-labelledby="response-heading">
      <CardHeader
        title={<span id="response-heading">Response</span>}
        description={response ? "As sent, without the headers the platform adds to every answer (CORS, caching, rate limits, security); secrets masked, capped." : undefined}
      />
      <CardBody>
        {response ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <h3 className="text-xs font-medium uppercase tracking-wide text-slate-600">Status</h3>
              <p className="mt-1 font-mono text-sm text-slate-900">{response.status}</p>
              <h3 className="mt-4 text-xs font-medium uppercase tracking-wide text-slate-600">Headers</h3>
              <dl className="mt-1 space-y-1 font-mono text-xs">
                {headers.map(([name, value]) => (
                  <div key={name} className="flex flex-wrap gap-x-2">
                    <dt className="text-slate-600">{name}:</dt>
                    <dd className="break-all text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
              {response.headersCapped && <p className="mt-2 text-xs text-slate-600">Some headers were cut or left out to keep the log small.</p>}
            </div>
            <div>
              <h3 className="text-xs font-medium uppercase tracking-wide text-slate-600">Body</h3>
              {response.body ? (
                <CodeBlock label="Response body" className="mt-1 max-h-72 rounded-md bg-slate-50 px-3 py-2 text-slate-800 ring-1 ring-slate-200 ring-inset">
                  {prettyText(response.body)}
                </CodeBlock>
              ) : (
                <p className="mt-1 text-sm text-slate-600">
                  <Badge>empty</Badge>
                </p>
              )}
            </div>
          </div>
        ) : (
          <p className="text-sm text-slate-600">
            {entry.httpStatus !== null ? `Answered ${entry.httpStatus}; this run was logged before responses were kept.` : "No response was recorded for this run."}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
