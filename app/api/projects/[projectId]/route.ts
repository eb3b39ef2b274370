import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { toProjectView } from "@/lib/projects/project-view";
import { updateProject } from "@/lib/projects/update-project";

export const GET = withProjectAuth(async ({ project }) => Response.json(toProjectView(project)), {
  permission: ["endpoints.read", "schemas.read", "records.read", "automations.read", "project.manage"],
});

/** Project settings: name, customer database, mail server, log retention, public OpenAPI document (dashboard admins). */
export const PATCH = withProjectAuth(async ({ request, project }) => Response.json(await updateProject({ projectId: project.id, input: await readJson(request) })), {
  permission: "project.manage",
  sessionOnly: true,
});
