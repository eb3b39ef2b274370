import { withProjectAuth } from "@/lib/http/with-project-auth";
import { getAutomationOrThrow } from "@/lib/automations/get-automation-or-throw";
import { listExecutions } from "@/lib/flow/execution-log/list-executions";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

/** The automation's runs, newest first: `?outcome=&from=&to=&limit=20&before=exe_…` (list-executions.ts). */
export const GET = withProjectAuth<{ projectId: string; automationId: string }>(
  async ({ request, project, params }) => {
    await getAutomationOrThrow({ projectId: project.id, automationId: params.automationId });
    const store = await getProjectRecordStore({ project });
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return Response.json(await listExecutions({ store, automationId: params.automationId, query }));
  },
  { permission: "automations.read" },
);
