import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EndpointTabs } from "@/components/endpoints/endpoint-tabs";
import { EndpointAnalyticsView } from "@/components/endpoints/endpoint-analytics-view";
import { MethodBadge } from "@/components/endpoints/status-badges";
import { analyticsRangeSchema, getEndpointAnalytics } from "@/lib/endpoint-analytics/get-endpoint-analytics";
import { loadEndpoint } from "../load-endpoint";

type Props = { params: Promise<{ projectId: string; endpointId: string }>; searchParams: Promise<{ range?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { projectId, endpointId } = await params;
  const { endpoint } = await loadEndpoint(projectId, endpointId);
  return { title: `Analytics of ${endpoint.method} ${endpoint.slug}` };
}

export default async function EndpointAnalyticsPage({ params, searchParams }: Props) {
  const { projectId, endpointId } = await params;
  const { loaded, endpoint, crumbs } = await loadEndpoint(projectId, endpointId);
  // An unknown or missing range shows the last day rather than an error page.
  const range = analyticsRangeSchema.catch("24h").parse((await searchParams).range);
  const analytics = await getEndpointAnalytics({ projectId: loaded.project.id, endpointId: endpoint.id, range });
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
        description="Calls, errors, cache hits and latency of this endpoint."
      />
      <EndpointTabs projectId={projectId} endpointId={endpoint.id} active="analytics" />
      <EndpointAnalyticsView analytics={analytics} path={`/projects/${projectId}/endpoints/${endpoint.id}/analytics`} />
    </>
  );
}
