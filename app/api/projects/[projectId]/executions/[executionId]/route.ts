import { withProjectAuth } from "@/lib/http/with-project-auth";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

export const GET = withProjectAuth<{ projectId: string; executionId: string }>(
  async ({ project, params }) => {
    const store = await getProjectRecordStore({ project });
    return Response.json(await getExecutionOrThrow({ store, executionId: params.executionId }));
  },
  { permission: ["endpoints.read", "automations.read"] },
);
