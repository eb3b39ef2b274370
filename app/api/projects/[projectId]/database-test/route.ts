import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { testDatabaseConnection } from "@/lib/projects/test-database-connection";

/** "Test connection" for a database the owner is about to attach: `{kind, url}` → `{ok, message}`. */
export const POST = withProjectAuth(async ({ request, project }) => Response.json(await testDatabaseConnection({ projectId: project.id, input: await readJson(request) })), {
  permission: "project.manage",
  sessionOnly: true,
});
