import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { importAutomations } from "@/lib/automations/import-automations";

/** Creates or replaces automations from an export document, all or nothing. */
export const POST = withProjectAuth(
  async ({ request, project }) => Response.json(await importAutomations({ projectId: project.id, input: await readJson(request, { limitBytes: 5_000_000 }) })),
  { permission: "automations.write" },
);
