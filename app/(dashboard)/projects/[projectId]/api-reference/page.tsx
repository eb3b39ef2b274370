import type { Metadata } from "next";
import { ApiReference } from "@/components/openapi/api-reference";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { getAppUrl } from "@/lib/app-url";
import { listEndpoints } from "@/lib/endpoints/list-endpoints";
import { getInvocationBaseUrl } from "@/lib/http/invocation-origin";
import { buildProjectOpenApi } from "@/lib/openapi/build-project-openapi";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { loadProject } from "../load-project";

export const metadata: Metadata = { title: "API reference" };

/** Every member may read endpoints and records (lib/auth/permissions.ts), so every member sees the reference. */
export default async function ApiReferencePage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const loaded = await loadProject(projectId);
  const { project } = loaded;
  const [schemas, endpoints] = await Promise.all([listSchemas({ projectId: project.id }), listEndpoints({ projectId: project.id })]);
  const document = buildProjectOpenApi({ project, schemas, endpoints, appUrl: getAppUrl(), invocationUrl: getInvocationBaseUrl() });
  return (
    <>
      <PageHeader
        crumbs={projectCrumbs(loaded, "API reference")}
        title="API reference"
        description="The records API of your collections, the end-user auth routes of your auth schemas and your enabled endpoints, as an OpenAPI 3.1 document."
        actions={
          <a href={`/api/projects/${project.id}/openapi.json`} download="openapi.json" className={buttonClasses("secondary")}>
            Download openapi.json
          </a>
        }
      />
      <p className="mb-6 text-sm text-slate-700">
        {project.openapiPublic
          ? "Anyone may read this document without an API key (see Settings)."
          : "Reading the document over HTTP needs an API key with endpoints.read or records.read; Settings can make it public."}{" "}
        Server: <code className="break-all">{document.servers[0]?.url}</code>
      </p>
      <ApiReference document={document} />
    </>
  );
}
