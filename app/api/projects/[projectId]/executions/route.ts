import type { RequestActor } from "@/lib/http/authenticate-request";
import { withProjectAuth } from "@/lib/http/with-project-auth";
import { listExecutions } from "@/lib/flow/execution-log/list-executions";
import type { FieldCondition } from "@/lib/records/record-store";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";

/**
 * An API key reads the runs its permissions cover: automation runs need automations.read, calls and
 * test runs endpoints.read (dashboard members hold both).
 */
function readableRuns(actor: RequestActor): FieldCondition[] {
  if (actor.type !== "api_key") return [];
  const endpoints = actor.permissions.includes("endpoints.read");
  const automations = actor.permissions.includes("automations.read");
  if (endpoints && automations) return [];
  return [{ field: "source", op: endpoints ? "ne" : "eq", value: "automation" }];
}

/**
 * The project's whole execution log, newest first:
 * `?endpointId=&automationId=&outcome=&source=&status=404|4xx&from=&to=&limit=&before=exe_…` → `{data, nextBefore}`.
 */
export const GET = withProjectAuth(
  async ({ request, project, actor }) => {
    const store = await getProjectRecordStore({ project });
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return Response.json(await listExecutions({ store, scope: readableRuns(actor), query }));
  },
  { permission: ["endpoints.read", "automations.read"] },
);
