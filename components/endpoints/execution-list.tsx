import { AppLink as Link } from "@/components/ui/app-link";
import type { ReactNode } from "react";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { Badge } from "@/components/ui/badge";
import { ButtonLink, buttonClasses } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/form-error";
import { Input, Select, type InputProps } from "@/components/ui/input";
import { MethodBadge, OutcomeBadge, formatDuration, formatRunTime } from "./status-badges";

export const OUTCOME_FILTERS = [
  { value: "completed", label: "Completed" },
  { value: "stopped", label: "Stopped" },
  { value: "failed", label: "Failed" },
  { value: "rejected", label: "Rejected (invalid input)" },
] as const;

export const SOURCE_FILTERS = [
  { value: "endpoint", label: "Calls" },
  { value: "test_run", label: "Test runs" },
  { value: "automation", label: "Automations" },
] as const;

/** The list's URL state: the filters (list-executions.ts reads the same names) and the cursor. */
export const EXECUTION_FILTER_KEYS = ["endpointId", "automationId", "source", "outcome", "status", "from", "to", "before"] as const;

export type ExecutionFilters = Partial<Record<(typeof EXECUTION_FILTER_KEYS)[number], string>>;

function hrefWith(path: string, filters: ExecutionFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * A time filter as a datetime-local control can show it: UTC without a zone. A value given with a
 * zone (an API-style link) is shown in UTC, so the control never hides a filter that is in force.
 */
function timeControlValue(value: string | undefined): string {
  if (!value) return "";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return value;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(ms) ? "" : new Date(ms).toISOString().slice(0, 19);
}

const FILTER_LABEL = "block text-xs font-medium text-slate-700";
const FILTER_CONTROL = "mt-1 w-auto min-w-36";

function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={FILTER_LABEL}>
        {label}
      </label>
      {children}
    </div>
  );
}

function FilterSelect({
  name,
  label,
  value,
  options,
  anyLabel,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: ReadonlyArray<{ value: string; label: string }>;
  anyLabel: string;
}) {
  const id = `execution-filter-${name}`;
  return (
    <FilterField id={id} label={label}>
      <Select id={id} name={name} defaultValue={value ?? ""} className={FILTER_CONTROL}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {/* A filter on something since deleted stays visible, so that the list is never filtered by an unseen value. */}
        {value && !options.some((option) => option.value === value) && <option value={value}>{value}</option>}
      </Select>
    </FilterField>
  );
}

/** A text or time filter of the form, labelled, its id and name from `name`. */
function FilterInput({ name, label, className = FILTER_CONTROL, ...props }: InputProps & { name: string; label: string }) {
  const id = `execution-filter-${name}`;
  return (
    <FilterField id={id} label={label}>
      <Input id={id} name={name} className={className} {...props} />
    </FilterField>
  );
}

/** The columns of the runs table: an endpoint's runs show source and status, an automation's trigger and attempt. */
function runColumns({ automation, actions }: { automation: boolean; actions: boolean }): { key: string; label: ReactNode; edge?: boolean; numeric?: boolean }[] {
  return [
    { key: "when", label: "When", edge: true },
    ...(automation
      ? [
          { key: "trigger", label: "Trigger" },
          { key: "attempt", label: "Attempt", numeric: true },
        ]
      : [{ key: "source", label: "Source" }]),
    { key: "outcome", label: "Outcome" },
    ...(automation ? [] : [{ key: "status", label: "Status", numeric: true }]),
    { key: "duration", label: "Duration", numeric: true },
    { key: "detail", label: automation ? "Error" : "Steps", edge: true },
    ...(actions ? [{ key: "actions", label: <span className="sr-only">Actions</span>, edge: true }] : []),
  ];
}

/**
 * The filters as a GET form: the state lives in the URL (a filtered list can be bookmarked and
 * shared), every control is labelled, and applying them starts again from the newest run.
 */
function ExecutionFilterForm({
  path,
  filters,
  projectWide,
  automation,
  endpointLabels,
  automationLabels,
}: {
  path: string;
  filters: ExecutionFilters;
  projectWide: boolean;
  automation: boolean;
  endpointLabels: ReadonlyMap<string, { method: string; slug: string }>;
  automationLabels: ReadonlyMap<string, string>;
}) {
  const active = EXECUTION_FILTER_KEYS.some((key) => key !== "before" && filters[key]);
  return (
    <form method="get" action={path} aria-label="Filter runs" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
      {projectWide && (
        <>
          <FilterSelect
            name="endpointId"
            label="Endpoint"
            value={filters.endpointId}
            anyLabel="All endpoints"
            options={[...endpointLabels].map(([id, endpoint]) => ({ value: id, label: `${endpoint.method} /${endpoint.slug}` }))}
          />
          <FilterSelect
            name="automationId"
            label="Automation"
            value={filters.automationId}
            anyLabel="All automations"
            options={[...automationLabels].map(([id, name]) => ({ value: id, label: name }))}
          />
          <FilterSelect name="source" label="Source" value={filters.source} anyLabel="All sources" options={SOURCE_FILTERS} />
        </>
      )}
      <FilterSelect name="outcome" label="Outcome" value={filters.outcome} anyLabel="All outcomes" options={OUTCOME_FILTERS} />
      {!automation && (
        <FilterInput
          name="status"
          label="Status code"
          defaultValue={filters.status ?? ""}
          placeholder="404 or 4xx"
          inputMode="text"
          pattern="[1-5]([0-9][0-9]|xx)"
          title="A status code such as 404, or a class such as 4xx"
          className={cn(FILTER_CONTROL, "w-28 min-w-0")}
        />
      )}
      <FilterInput name="from" label="Started from (UTC)" type="datetime-local" step={1} defaultValue={timeControlValue(filters.from)} />
      <FilterInput name="to" label="Started before (UTC)" type="datetime-local" step={1} defaultValue={timeControlValue(filters.to)} />
      <div className="flex gap-2">
        <button type="submit" className={buttonClasses("primary", "md")}>
          Apply filters
        </button>
        {active && (
          <ButtonLink href={path} variant="secondary">
            Clear
          </ButtonLink>
        )}
      </div>
    </form>
  );
}

/** Opens one run by its id (as a caller quotes it from an `x-execution-id` header or a 500 body). */
export function ExecutionSearchForm({ path, value, problem }: { path: string; value?: string; problem?: string }) {
  return (
    <form method="get" action={path} role="search" aria-label="Find a run by its execution id" className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor="execution-search-id" className={FILTER_LABEL}>
          Execution id
        </label>
        <Input
          id="execution-search-id"
          name="executionId"
          defaultValue={value ?? ""}
          placeholder="exe_…"
          required
          spellCheck={false}
          autoComplete="off"
          invalid={Boolean(problem)}
          aria-describedby={problem ? "execution-search-problem" : undefined}
          className="mt-1 w-80 max-w-full font-mono"
        />
      </div>
      <button type="submit" className={buttonClasses("secondary", "md")}>
        Open run
      </button>
      {problem && (
        <p id="execution-search-problem" role="alert" className="basis-full text-sm text-rose-700">
          {problem}
        </p>
      )}
    </form>
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
 * The execution log as a table, newest first, with a filter form (outcome, status code, time range;
 * project-wide also endpoint, automation and source) and paging by the `before` cursor. `endpointLabels` names endpoints for test runs, whose entries
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
  automationLabels = new Map(),
  showSourceFilter,
  problem,
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
  /** Names of the project's automations, for the project-wide automation filter. */
  automationLabels?: ReadonlyMap<string, string>;
  /** The project-wide list: filters by endpoint, automation and source too. */
  showSourceFilter?: boolean;
  /** Why no page could be read (invalid filters, an unreachable database): shown above the form's results. */
  problem?: string;
  variant?: "endpoint" | "automation";
  /** A cell of actions for a row (server-rendered); a column is added when given. */
  actions?: (entry: ExecutionLogEntry) => ReactNode;
  emptyDescription?: string;
}) {
  const automation = variant === "automation";
  return (
    <div className="space-y-4">
      <ExecutionFilterForm
        // Links (Clear, paging) navigate without a reload: a new form shows the new filters.
        key={EXECUTION_FILTER_KEYS.map((key) => filters[key] ?? "").join("|")}
        path={path}
        filters={filters}
        projectWide={Boolean(showSourceFilter)}
        automation={automation}
        endpointLabels={endpointLabels}
        automationLabels={automationLabels}
      />
      {problem && <Notice tone="warning">{problem}</Notice>}
      {!problem && (
        <Card>
          {entries.length === 0 ? (
            <CardBody>
              <EmptyState title={EXECUTION_FILTER_KEYS.some((key) => filters[key]) ? "No runs match" : "No runs yet"} description={emptyDescription} />
            </CardBody>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
                  <tr>
                    {runColumns({ automation, actions: Boolean(actions) }).map((column) => (
                      <th key={column.key} scope="col" className={cn(column.edge ? "px-5" : "px-3", "py-2", column.numeric && "text-right", "font-medium")}>
                        {column.label}
                      </th>
                    ))}
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
      )}
      {(nextBefore || filters.before) && (
        <div className="flex justify-between">
          {filters.before ? (
            <ButtonLink href={hrefWith(path, { ...filters, before: undefined })} variant="secondary" size="sm">
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
