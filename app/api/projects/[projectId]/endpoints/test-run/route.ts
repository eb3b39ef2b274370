import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { waitUntil } from "@/lib/http/after-response";
import { testRunEndpoint } from "@/lib/endpoints/test-run-endpoint";

/** Runs an unsaved draft for real: `{endpoint, body, query, user?}` → `{executionId, outcome, steps, response}`. */
export const POST = withProjectAuth(
  async ({ request, project }) => Response.json(await testRunEndpoint({ project, input: await readJson(request, { limitBytes: 500_000 }), waitUntil })),
  { permission: ["endpoints.create", "endpoints.update"] },
);
