import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { listEmailTemplates } from "@/lib/email-templates/list-email-templates";
import { createEmailTemplate } from "@/lib/email-templates/create-email-template";
import { EMAIL_TEMPLATE_READ, EMAIL_TEMPLATE_WRITE } from "@/lib/email-templates/permissions";

export const GET = withProjectAuth(async ({ project }) => Response.json({ data: await listEmailTemplates({ projectId: project.id }) }), {
  permission: EMAIL_TEMPLATE_READ,
});

export const POST = withProjectAuth(
  async ({ request, project }) => Response.json(await createEmailTemplate({ projectId: project.id, input: await readJson(request) }), { status: 201 }),
  { permission: EMAIL_TEMPLATE_WRITE },
);
