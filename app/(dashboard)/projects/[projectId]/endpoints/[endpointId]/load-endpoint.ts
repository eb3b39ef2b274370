import { cache } from "react";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { getEndpointOrThrow } from "@/lib/endpoints/get-endpoint-or-throw";
import type { EndpointDefinition } from "@/lib/endpoints/endpoint-definition";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import type { Crumb } from "@/components/ui/page-header";
import { loadProject, type LoadedProject } from "../../load-project";

/** The endpoint a page shows, after the membership check; a missing one (or another project's) is a 404. */
export const loadEndpoint = cache(async (projectId: string, endpointId: string): Promise<{ loaded: LoadedProject; endpoint: EndpointDefinition; crumbs: Crumb[] }> => {
  const loaded = await loadProject(projectId);
  const endpoint = await getEndpointOrThrow({ projectId: loaded.project.id, endpointId }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  const crumbs = projectCrumbs(loaded, "Endpoints");
  crumbs[crumbs.length - 1] = { label: "Endpoints", href: `/projects/${projectId}/endpoints` };
  crumbs.push({ label: `${endpoint.method} ${endpoint.slug}` });
  return { loaded, endpoint, crumbs };
});
