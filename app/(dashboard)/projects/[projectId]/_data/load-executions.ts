import "server-only";
import { isAppError } from "@/lib/errors";
import { listAutomations } from "@/lib/automations/list-automations";
import { listEndpoints } from "@/lib/endpoints/list-endpoints";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { EXECUTION_ID_PATTERN, listExecutions } from "@/lib/flow/execution-log/list-executions";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { EXECUTION_FILTER_KEYS, type ExecutionFilters } from "@/components/endpoints/execution-list";

export type SearchParams = Record<string, string | string[] | undefined>;

export interface ExecutionScopeLabels {
  endpointLabels: Map<string, { method: string; slug: string }>;
  automationLabels: Map<string, string>;
}

export type LoadedExecutions = ExecutionScopeLabels &
  ({ ok: true; entries: ExecutionLogEntry[]; nextBefore: string | null; filters: ExecutionFilters } | { ok: false; message: string; filters: ExecutionFilters });

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

export function readExecutionFilters(searchParams: SearchParams): ExecutionFilters {
  const filters: ExecutionFilters = {};
  for (const key of EXECUTION_FILTER_KEYS) filters[key] = first(searchParams[key]);
  return filters;
}

/**
 * A page of the execution log for a dashboard page (the caller has checked membership). Logs live
 * in the customer's database: when it cannot be reached, or the filters are not valid, the page
 * says so (naming the filter) instead of failing, and keeps its filter form.
 */
export async function loadExecutions(options: { project: ProjectRow; endpointId?: string; automationId?: string; searchParams: SearchParams }): Promise<LoadedExecutions> {
  const filters = readExecutionFilters(options.searchParams);
  const projectWide = !options.endpointId && !options.automationId;
  const [endpoints, automations] = await Promise.all([
    // An automation's runs name no endpoints.
    options.automationId ? [] : listEndpoints({ projectId: options.project.id }),
    projectWide ? listAutomations({ projectId: options.project.id }) : [],
  ]);
  const labels: ExecutionScopeLabels = {
    endpointLabels: new Map(endpoints.map((endpoint) => [endpoint.id, { method: endpoint.method, slug: endpoint.slug }])),
    automationLabels: new Map(automations.map((automation) => [automation.id, automation.name])),
  };
  try {
    const store = await getProjectRecordStore({ project: options.project });
    const page = await listExecutions({ store, endpointId: options.endpointId, automationId: options.automationId, query: { ...filters, limit: 25 } });
    return { ok: true, entries: page.data, nextBefore: page.nextBefore, filters, ...labels };
  } catch (error) {
    if (isAppError(error) && error.isPublic) {
      const message =
        error.code === "bad_request"
          ? `These filters are not valid: ${(error.issues ?? []).map((issue) => `${issue.path} ${issue.message}`).join("; ")}.`
          : `The execution log could not be read: ${error.message}.`;
      return { ok: false, message, filters, ...labels };
    }
    throw error;
  }
}

export type ExecutionSearch = { found: true; executionId: string } | { found: false; message: string };

/**
 * The search by execution id: the run's id when this project's log holds it (a well-formed id of
 * another project's run is simply not in this database).
 */
export async function findExecutionById(options: { project: ProjectRow; executionId: string }): Promise<ExecutionSearch> {
  const executionId = options.executionId.trim();
  if (!EXECUTION_ID_PATTERN.test(executionId)) return { found: false, message: `“${executionId.slice(0, 40)}” is not an execution id (exe_ and 26 letters or digits).` };
  try {
    const store = await getProjectRecordStore({ project: options.project });
    const entry = await getExecutionOrThrow({ store, executionId });
    return { found: true, executionId: entry.id };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return { found: false, message: `No run ${executionId} in this project's log.` };
    if (isAppError(error) && error.isPublic) return { found: false, message: `The execution log could not be read: ${error.message}.` };
    throw error;
  }
}
