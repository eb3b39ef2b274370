import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { listAutomations } from "@/lib/automations/list-automations";
import { createAutomation } from "@/lib/automations/create-automation";

export const GET = withProjectAuth(async ({ project }) => Response.json({ data: await listAutomations({ projectId: project.id }) }), {
  permission: "automations.read",
});

export const POST = withProjectAuth(
  async ({ request, project }) => Response.json(await createAutomation({ projectId: project.id, input: await readJson(request) }), { status: 201 }),
  { permission: "automations.write" },
);
