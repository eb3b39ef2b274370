import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { getEmailTemplateOrThrow } from "@/lib/email-templates/get-email-template";
import { updateEmailTemplate } from "@/lib/email-templates/update-email-template";
import { deleteEmailTemplate } from "@/lib/email-templates/delete-email-template";
import { EMAIL_TEMPLATE_READ, EMAIL_TEMPLATE_WRITE } from "@/lib/email-templates/permissions";

type Params = { projectId: string; templateId: string };

export const GET = withProjectAuth<Params>(async ({ project, params }) => Response.json(await getEmailTemplateOrThrow({ projectId: project.id, idOrName: params.templateId })), {
  permission: EMAIL_TEMPLATE_READ,
});

export const PATCH = withProjectAuth<Params>(
  async ({ request, project, params }) => Response.json(await updateEmailTemplate({ projectId: project.id, idOrName: params.templateId, patch: await readJson(request) })),
  { permission: EMAIL_TEMPLATE_WRITE },
);

export const DELETE = withProjectAuth<Params>(
  async ({ project, params }) => {
    await deleteEmailTemplate({ projectId: project.id, idOrName: params.templateId });
    return new Response(null, { status: 204 });
  },
  { permission: EMAIL_TEMPLATE_WRITE },
);
