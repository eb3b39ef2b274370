import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { EndpointEditor } from "@/components/endpoints/endpoint-editor";
import { loadEditorContext } from "../../_data/load-editor-context";
import { loadProject } from "../../load-project";
import { createEndpointAction, testRunEndpointAction } from "../actions";

export const metadata: Metadata = { title: "New endpoint" };

export default async function NewEndpointPage({ params }: { params: Promise<{ projectId: string }> }) {
  const loaded = await loadProject((await params).projectId);
  const projectId = loaded.project.id;
  const context = await loadEditorContext(projectId);
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
        actions={{ save: createEndpointAction.bind(null, projectId), testRun: testRunEndpointAction.bind(null, projectId) }}
      />
    </>
  );
}
