import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EndpointTabs } from "@/components/endpoints/endpoint-tabs";
import { ExecutionList } from "@/components/endpoints/execution-list";
import { loadExecutions, type SearchParams } from "../../../_data/load-executions";
import { MethodBadge } from "@/components/endpoints/status-badges";
import { loadEndpoint } from "../load-endpoint";

type Props = { params: Promise<{ projectId: string; endpointId: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { projectId, endpointId } = await params;
  const { endpoint } = await loadEndpoint(projectId, endpointId);
  return { title: `Executions of ${endpoint.method} ${endpoint.slug}` };
}

export default async function EndpointExecutionsPage({ params, searchParams }: Props) {
  const { projectId, endpointId } = await params;
  const { loaded, endpoint, crumbs } = await loadEndpoint(projectId, endpointId);
  const result = await loadExecutions({ project: loaded.row, endpointId: endpoint.id, searchParams: await searchParams });
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title={
          <span className="flex items-center gap-3">
            <MethodBadge method={endpoint.method} />
            <span>{endpoint.name}</span>
          </span>
        }
        description="Calls and test runs of this endpoint, newest first."
      />
      <EndpointTabs projectId={projectId} endpointId={endpoint.id} active="executions" />
      <ExecutionList
        projectId={projectId}
        path={`/projects/${projectId}/endpoints/${endpoint.id}/executions`}
        entries={result.ok ? result.entries : []}
        nextBefore={result.ok ? result.nextBefore : null}
        filters={result.filters}
        endpointLabels={result.endpointLabels}
        problem={result.ok ? undefined : result.message}
      />
    </>
  );
}
