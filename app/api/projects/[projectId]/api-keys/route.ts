import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";

export const GET = withProjectAuth(async ({ project }) => Response.json({ data: await listApiKeys({ projectId: project.id }) }), {
  permission: "project.manage",
  sessionOnly: true,
});

export const POST = withProjectAuth(
  async ({ request, project, actor }) => {
    const created = await createApiKey({ projectId: project.id, input: await readJson(request), createdBy: actor.type === "user" ? actor.userId : null });
    return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
  },
  { permission: "project.manage", sessionOnly: true },
);
