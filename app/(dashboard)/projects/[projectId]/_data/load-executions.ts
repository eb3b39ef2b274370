import "server-only";
import { isAppError } from "@/lib/errors";
import { listEndpoints } from "@/lib/endpoints/list-endpoints";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { listExecutions } from "@/lib/flow/execution-log/list-executions";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { ExecutionFilters } from "@/components/endpoints/execution-list";

export type SearchParams = Record<string, string | string[] | undefined>;

export type LoadedExecutions =
  | { ok: true; entries: ExecutionLogEntry[]; nextBefore: string | null; filters: ExecutionFilters; endpointLabels: Map<string, { method: string; slug: string }> }
  | { ok: false; message: string; filters: ExecutionFilters };

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text || undefined;
}

/**
 * A page of the execution log for a dashboard page (the caller has checked membership). Logs live
 * in the customer's database: when it cannot be reached, or the filters are not valid, the page
 * says so instead of failing.
 */
export async function loadExecutions(options: { project: ProjectRow; endpointId?: string; automationId?: string; searchParams: SearchParams }): Promise<LoadedExecutions> {
  const filters: ExecutionFilters = { outcome: first(options.searchParams.outcome), source: first(options.searchParams.source), before: first(options.searchParams.before) };
  try {
    const store = await getProjectRecordStore({ project: options.project });
    const [page, endpoints] = await Promise.all([
      listExecutions({ store, endpointId: options.endpointId, automationId: options.automationId, query: { ...filters, limit: 25 } }),
      // An automation's runs name no endpoints.
      options.automationId ? [] : listEndpoints({ projectId: options.project.id }),
    ]);
    const endpointLabels = new Map(endpoints.map((endpoint) => [endpoint.id, { method: endpoint.method, slug: endpoint.slug }]));
    return { ok: true, entries: page.data, nextBefore: page.nextBefore, filters, endpointLabels };
  } catch (error) {
    if (isAppError(error) && error.isPublic) {
      const message = error.code === "bad_request" ? "These filters are not valid." : `The execution log could not be read: ${error.message}.`;
      return { ok: false, message, filters };
    }
    throw error;
  }
}
