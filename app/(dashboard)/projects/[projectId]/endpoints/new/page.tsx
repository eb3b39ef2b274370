import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { EndpointEditor } from "@/components/endpoints/endpoint-editor";
import { loadEditorContext } from "../../_data/load-editor-context";
import { loadReplayRequest, replayParam, replayProps } from "../../_data/load-replay-request";
import { loadProject } from "../../load-project";
import { createEndpointAction, testRunEndpointAction } from "../actions";

export const metadata: Metadata = { title: "New endpoint" };

export default async function NewEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const replayId = replayParam(await searchParams);
  const [context, replay] = await Promise.all([loadEditorContext(projectId), replayId ? loadReplayRequest({ projectId, executionId: replayId }) : null]);
  const crumbs = projectCrumbs(loaded, "Endpoints");
  crumbs[crumbs.length - 1] = { label: "Endpoints", href: `/projects/${projectId}/endpoints` };
  return (
    <>
      <PageHeader crumbs={[...crumbs, { label: "New" }]} title="New endpoint" />
      <EndpointEditor
        projectId={projectId}
        endpointId={null}
        initial={null}
        {...context}
        {...replayProps(replay)}
        actions={{ save: createEndpointAction.bind(null, projectId), testRun: testRunEndpointAction.bind(null, projectId) }}
      />
    </>
  );
}
