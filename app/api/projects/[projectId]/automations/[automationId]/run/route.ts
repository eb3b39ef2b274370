import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readJson } from "@/lib/http/read-json";
import { MAX_MANUAL_PAYLOAD_BYTES, runAutomationNow } from "@/lib/automations/run-automation-now";

type Params = { projectId: string; automationId: string };

/** The body is the payload the flow reads as `trigger.*`; 202 before the run starts. */
export const POST = withProjectAuth<Params>(
  async ({ request, project, params }) => {
    const payload = await readJson(request, { limitBytes: MAX_MANUAL_PAYLOAD_BYTES });
    return Response.json(await runAutomationNow({ projectId: project.id, automationId: params.automationId, payload }), { status: 202 });
  },
  { permission: "automations.run" },
);
