import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { importEndpoints } from "@/lib/endpoints/import-endpoints";

/** Creates or replaces endpoints from an export document, all or nothing. */
export const POST = withProjectAuth(
  async ({ request, project }) => Response.json(await importEndpoints({ projectId: project.id, document: await readJson(request, { limitBytes: 5_000_000 }) })),
  { permission: ["endpoints.create", "endpoints.update"], requireAll: true },
);
