import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { listEndpoints } from "@/lib/endpoints/list-endpoints";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";

export const GET = withProjectAuth(async ({ project }) => Response.json({ data: await listEndpoints({ projectId: project.id }) }), {
  permission: "endpoints.read",
});

export const POST = withProjectAuth(
  async ({ request, project }) => Response.json(await createEndpoint({ projectId: project.id, input: await readJson(request) }), { status: 201 }),
  { permission: "endpoints.create" },
);
