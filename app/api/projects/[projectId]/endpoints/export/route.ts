import { withProjectAuth } from "@/lib/http/with-project-auth";
import { exportEndpoints } from "@/lib/endpoints/export-endpoints";

export const GET = withProjectAuth(
  async ({ project }) =>
    Response.json(await exportEndpoints({ projectId: project.id }), {
      headers: { "content-disposition": `attachment; filename="${project.slug}-endpoints.json"` },
    }),
  { permission: "endpoints.read" },
);
