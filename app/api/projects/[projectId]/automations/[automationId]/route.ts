import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import { updateAutomation } from "@/lib/automations/update-automation";
import { deleteAutomation } from "@/lib/automations/delete-automation";

type Params = { projectId: string; automationId: string };

export const GET = withProjectAuth<Params>(async ({ project, params }) => Response.json(await getAutomationOrThrow({ projectId: project.id, automationId: params.automationId })), {
  permission: "automations.read",
});

/** Partial update, `{"enabled": false}` included; a trigger given replaces the old one whole. */
export const PATCH = withProjectAuth<Params>(
  async ({ request, project, params }) => Response.json(await updateAutomation({ projectId: project.id, automationId: params.automationId, patch: await readJson(request) })),
  { permission: "automations.write" },
);

export const DELETE = withProjectAuth<Params>(
  async ({ project, params }) => {
    await deleteAutomation({ projectId: project.id, automationId: params.automationId });
    return new Response(null, { status: 204 });
  },
  { permission: "automations.write" },
);
