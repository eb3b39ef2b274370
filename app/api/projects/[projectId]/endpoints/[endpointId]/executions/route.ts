import { withProjectAuth } from "@/lib/http/with-project-auth";
import { getEndpointOrThrow } from "@/lib/endpoints/get-endpoint-or-throw";
import { listExecutions } from "@/lib/flow/execution-log/list-executions";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

/** The endpoint's calls and test runs, newest first: `?outcome=&source=&status=404|4xx&from=&to=&limit=20&before=exe_…` (list-executions.ts). */
export const GET = withProjectAuth<{ projectId: string; endpointId: string }>(
  async ({ request, project, params }) => {
    await getEndpointOrThrow({ projectId: project.id, endpointId: params.endpointId });
    const store = await getProjectRecordStore({ project });
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return Response.json(await listExecutions({ store, endpointId: params.endpointId, query }));
  },
  { permission: "endpoints.read" },
);
