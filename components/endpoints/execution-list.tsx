import Link from "next/link";
import type { ReactNode } from "react";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { MethodBadge, OutcomeBadge, formatDuration, formatRunTime } from "./status-badges";

export const OUTCOME_FILTERS = [
  { value: undefined, label: "All" },
  { value: "completed", label: "Completed" },
  { value: "stopped", label: "Stopped" },
  { value: "failed", label: "Failed" },
] as const;

export const SOURCE_FILTERS = [
  { value: undefined, label: "All sources" },
  { value: "endpoint", label: "Calls" },
  { value: "test_run", label: "Test runs" },
  { value: "automation", label: "Automations" },
] as const;

export interface ExecutionFilters {
  outcome?: string;
  source?: string;
  before?: string;
}

function hrefWith(path: string, filters: ExecutionFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

function FilterLinks<T extends { value: string | undefined; label: string }>({
  label,
  options,
  current,
  href,
}: {
  label: string;
  options: readonly T[];
  current: string | undefined;
  href: (value: string | undefined) => string;
}) {
  return (
    <nav aria-label={label} className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5 text-sm shadow-sm">
      {options.map((option) => {
        const active = option.value === current;
        return (
          <Link
            key={option.label}
            href={href(option.value)}
            aria-current={active ? "page" : undefined}
            className={cn("rounded-md px-3 py-1", active ? "bg-indigo-50 font-medium text-indigo-700" : "text-slate-600 hover:text-slate-900")}
          >
            {option.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** What started an automation run and which attempt it was (entries logged before these fields existed have neither). */
function automationRunDetails(entry: ExecutionLogEntry): { trigger: string | null; attempt: number | null } {
  return { trigger: entry.trigger ?? null, attempt: typeof entry.attempt === "number" ? entry.attempt : null };
}

const TRIGGER_LABELS: Record<string, string> = { form: "Form", record: "Record change", schedule: "Schedule", manual: "Manual" };

/** What a run's error column says: the run's error, else its first failed step's. */
function runError(entry: ExecutionLogEntry): string | null {
  const failedStep = entry.steps.find((step) => step.status === "failed");
  if (failedStep) return `Step ${failedStep.index + 1}: ${failedStep.error}`;
  return entry.error;
}

/**
 * The execution log as a table, newest first, with outcome (and optionally source) filters and
 * paging by the `before` cursor. `endpointLabels` names endpoints for test runs, whose entries
 * carry only the endpoint id. The automation variant shows each run's trigger and attempt instead
 * of its source and HTTP status, and `actions` adds a last column (Run again).
 */
export function ExecutionList({
  projectId,
  path,
  entries,
  nextBefore,
  filters,
  endpointLabels,
  showSourceFilter,
  variant = "endpoint",
  actions,
  emptyDescription = "Every call and test run is logged here step by step, newest first, for as long as the project keeps logs.",
}: {
  projectId: string;
  /** The page's own path, for filter and paging links. */
  path: string;
  entries: ExecutionLogEntry[];
  nextBefore: string | null;
  filters: ExecutionFilters;
  endpointLabels: ReadonlyMap<string, { method: string; slug: string }>;
  showSourceFilter?: boolean;
  variant?: "endpoint" | "automation";
  /** A cell of actions for a row (server-rendered); a column is added when given. */
  actions?: (entry: ExecutionLogEntry) => ReactNode;
  emptyDescription?: string;
}) {
  const automation = variant === "automation";
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <FilterLinks label="Filter by outcome" options={OUTCOME_FILTERS} current={filters.outcome} href={(outcome) => hrefWith(path, { source: filters.source, outcome })} />
        {showSourceFilter && (
          <FilterLinks label="Filter by source" options={SOURCE_FILTERS} current={filters.source} href={(source) => hrefWith(path, { outcome: filters.outcome, source })} />
        )}
      </div>
      <Card>
        {entries.length === 0 ? (
          <CardBody>
            <EmptyState title={filters.outcome || filters.source || filters.before ? "No runs match" : "No runs yet"} description={emptyDescription} />
          </CardBody>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-5 py-2 font-medium">
                    When
                  </th>
                  {automation ? (
                    <>
                      <th scope="col" className="px-3 py-2 font-medium">
                        Trigger
                      </th>
                      <th scope="col" className="px-3 py-2 text-right font-medium">
                        Attempt
                      </th>
                    </>
                  ) : (
                    <th scope="col" className="px-3 py-2 font-medium">
                      Source
                    </th>
                  )}
                  <th scope="col" className="px-3 py-2 font-medium">
                    Outcome
                  </th>
                  {!automation && (
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Status
                    </th>
                  )}
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Duration
                  </th>
                  <th scope="col" className="px-5 py-2 font-medium">
                    {automation ? "Error" : "Steps"}
                  </th>
                  {actions && (
                    <th scope="col" className="px-5 py-2 font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {entries.map((entry) => {
                  const endpoint = entry.method && entry.slug ? { method: entry.method, slug: entry.slug } : entry.endpointId ? endpointLabels.get(entry.endpointId) : undefined;
                  const failedStep = entry.steps.find((step) => step.status === "failed");
                  const run = automation ? automationRunDetails(entry) : null;
                  const error = automation ? runError(entry) : null;
                  return (
                    <tr key={entry.id} className="hover:bg-slate-50/60">
                      <td className="px-5 py-2.5 whitespace-nowrap">
                        <Link href={`/projects/${projectId}/executions/${entry.id}`} className="font-medium text-indigo-600 hover:text-indigo-500">
                          {formatRunTime(entry.startedAt)}
                        </Link>
                      </td>
                      {run ? (
                        <>
                          <td className="px-3 py-2.5 text-xs whitespace-nowrap text-slate-700">{run.trigger ? (TRIGGER_LABELS[run.trigger] ?? run.trigger) : "—"}</td>
                          <td className="px-3 py-2.5 text-right text-xs tabular-nums text-slate-600">{run.attempt ?? "—"}</td>
                        </>
                      ) : (
                        <td className="px-3 py-2.5">
                          <span className="flex items-center gap-2 whitespace-nowrap">
                            {entry.source === "test_run" && <Badge tone="indigo">Test run</Badge>}
                            {entry.source === "automation" && <Badge>Automation</Badge>}
                            {endpoint && (
                              <>
                                <MethodBadge method={endpoint.method} className="w-auto" />
                                <span className="font-mono text-xs text-slate-700">/{endpoint.slug}</span>
                              </>
                            )}
                            {!endpoint && entry.source === "test_run" && <span className="text-xs text-slate-500">unsaved draft</span>}
                          </span>
                        </td>
                      )}
                      <td className="px-3 py-2.5">
                        <OutcomeBadge outcome={entry.outcome} />
                      </td>
                      {!automation && <td className="px-3 py-2.5 text-right font-mono text-xs text-slate-600">{entry.httpStatus ?? "—"}</td>}
                      <td className="px-3 py-2.5 text-right text-xs whitespace-nowrap tabular-nums text-slate-600">{formatDuration(entry.durationMs)}</td>
                      <td className="max-w-xs truncate px-5 py-2.5 text-xs text-slate-500" title={error ?? undefined}>
                        {automation ? (
                          error ? (
                            <span className="block max-w-xs truncate text-rose-700">{error}</span>
                          ) : (
                            "—"
                          )
                        ) : failedStep ? (
                          <span className="text-rose-700">
                            Step {failedStep.index + 1}: {failedStep.error}
                          </span>
                        ) : (
                          `${entry.steps.filter((step) => step.status === "ok").length} of ${entry.steps.length} ok`
                        )}
                      </td>
                      {actions && <td className="px-5 py-2.5 text-right whitespace-nowrap">{actions(entry)}</td>}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {(nextBefore || filters.before) && (
        <div className="flex justify-between">
          {filters.before ? (
            <ButtonLink href={hrefWith(path, { outcome: filters.outcome, source: filters.source })} variant="secondary" size="sm">
              ← Newest
            </ButtonLink>
          ) : (
            <span />
          )}
          {nextBefore && (
            <ButtonLink href={hrefWith(path, { ...filters, before: nextBefore })} variant="secondary" size="sm">
              Older →
            </ButtonLink>
          )}
        </div>
      )}
    </div>
  );
}
