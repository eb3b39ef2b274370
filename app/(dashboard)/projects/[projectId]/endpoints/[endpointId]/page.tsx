import type { Metadata } from "next";
import { toEndpointInput } from "@/lib/endpoints/endpoint-row";
import { PageHeader } from "@/components/ui/page-header";
import { DeleteEndpointButton } from "@/components/endpoints/delete-endpoint-button";
import { EndpointEditor } from "@/components/endpoints/endpoint-editor";
import { EndpointTabs } from "@/components/endpoints/endpoint-tabs";
import { toEndpointDraft } from "@/components/endpoints/endpoint-draft";
import { loadEditorContext } from "../../_data/load-editor-context";
import { loadReplayRequest, replayParam, replayProps } from "../../_data/load-replay-request";
import { MethodBadge } from "@/components/endpoints/status-badges";
import { deleteEndpointAction, testRunEndpointAction, updateEndpointAction } from "../actions";
import { loadEndpoint } from "./load-endpoint";

type Params = { params: Promise<{ projectId: string; endpointId: string }> };
type PageProps = Params & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { projectId, endpointId } = await params;
  const { endpoint } = await loadEndpoint(projectId, endpointId);
  return { title: `${endpoint.method} ${endpoint.slug}` };
}

export default async function EditEndpointPage({ params, searchParams }: PageProps) {
  const { projectId, endpointId } = await params;
  const { endpoint, crumbs } = await loadEndpoint(projectId, endpointId);
  const replayId = replayParam(await searchParams);
  const [context, replay] = await Promise.all([loadEditorContext(projectId), replayId ? loadReplayRequest({ projectId, executionId: replayId }) : null]);
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
        description={`Version ${endpoint.version}${endpoint.enabled ? "" : " · disabled"}`}
        actions={<DeleteEndpointButton projectId={projectId} label={`${endpoint.method} ${endpoint.slug}`} action={deleteEndpointAction.bind(null, projectId, endpoint.id)} />}
      />
      <EndpointTabs projectId={projectId} endpointId={endpoint.id} active="editor" />
      <EndpointEditor
        projectId={projectId}
        endpointId={endpoint.id}
        initial={toEndpointDraft(toEndpointInput(endpoint))}
        {...context}
        {...replayProps(replay)}
        actions={{ save: updateEndpointAction.bind(null, projectId, endpoint.id), testRun: testRunEndpointAction.bind(null, projectId) }}
      />
    </>
  );
}
