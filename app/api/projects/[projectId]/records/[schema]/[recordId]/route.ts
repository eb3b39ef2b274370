import { AppError } from "@/lib/errors";
import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readRecordRequest } from "@/lib/files/read-record-request";
import { isValidRecordId } from "@/lib/records/record-names";
import { deleteRecord } from "@/lib/records-service/delete-record";
import { getRecordOrThrow } from "@/lib/records-service/get-record-or-throw";
import { updateRecord } from "@/lib/records-service/update-record";
import { assertOnlyParameters, loadRecordRouteContext } from "../../_lib/record-route-context";

type Params = { projectId: string; schema: string; recordId: string };

function assertRecordId(schema: string, id: string): void {
  // An id that cannot exist is simply not found (the store would call it malformed).
  if (!isValidRecordId(id)) throw new AppError("not_found", `no ${schema} record has this id`);
}

/** `GET /records/:schema/:recordId?expand=author,tags` */
export const GET = withProjectAuth<Params>(
  async ({ request, runtime, params, json }) => {
    const searchParams = new URL(request.url).searchParams;
    assertOnlyParameters(searchParams, ["expand"]);
    const context = await loadRecordRouteContext(runtime, params.schema);
    assertRecordId(params.schema, params.recordId);
    const expand = [
      ...new Set(
        (searchParams.get("expand") ?? "")
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ];
    return json(await getRecordOrThrow({ ...context, id: params.recordId, expand, signal: request.signal }));
  },
  { permission: "records.read" },
);

/** `PATCH /records/:schema/:recordId`: the fields to change (JSON or multipart with files). */
export const PATCH = withProjectAuth<Params>(
  async ({ request, project, runtime, params, json }) => {
    const context = await loadRecordRouteContext(runtime, params.schema);
    assertRecordId(params.schema, params.recordId);
    const { values, uploads } = await readRecordRequest(request, { schema: context.schema, schemas: context.schemas });
    return json(await updateRecord({ ...context, projectId: project.id, origin: "api", id: params.recordId, input: values, uploads }));
  },
  { permission: "records.update" },
);

/** `DELETE /records/:schema/:recordId` → 204; the record's files go with it unless another record uses them. */
export const DELETE = withProjectAuth<Params>(
  async ({ project, runtime, params }) => {
    const context = await loadRecordRouteContext(runtime, params.schema);
    assertRecordId(params.schema, params.recordId);
    await deleteRecord({ ...context, projectId: project.id, origin: "api", id: params.recordId });
    return new Response(null, { status: 204 });
  },
  { permission: "records.delete" },
);
