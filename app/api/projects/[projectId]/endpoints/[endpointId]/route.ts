import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { getEndpointOrThrow } from "@/lib/endpoints/get-endpoint-or-throw";
import { updateEndpoint } from "@/lib/endpoints/update-endpoint";
import { deleteEndpoint } from "@/lib/endpoints/delete-endpoint";

type Params = { projectId: string; endpointId: string };

export const GET = withProjectAuth<Params>(async ({ project, params }) => Response.json(await getEndpointOrThrow({ projectId: project.id, endpointId: params.endpointId })), {
  permission: "endpoints.read",
});

/** Partial update, `{"enabled": false}` included. */
export const PATCH = withProjectAuth<Params>(
  async ({ request, project, params }) => Response.json(await updateEndpoint({ projectId: project.id, endpointId: params.endpointId, patch: await readJson(request) })),
  { permission: "endpoints.update" },
);

export const DELETE = withProjectAuth<Params>(
  async ({ project, params }) => {
    await deleteEndpoint({ projectId: project.id, endpointId: params.endpointId });
    return new Response(null, { status: 204 });
  },
  { permission: "endpoints.delete" },
);
