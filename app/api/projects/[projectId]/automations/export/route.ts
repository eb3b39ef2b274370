import { withProjectAuth } from "@/lib/http/with-project-auth";
import { exportAutomations } from "@/lib/automations/export-automations";

export const GET = withProjectAuth(
  async ({ project }) =>
    Response.json(await exportAutomations({ projectId: project.id }), {
      headers: { "content-disposition": `attachment; filename="${project.slug}-automations.json"` },
    }),
  { permission: "automations.read" },
);
