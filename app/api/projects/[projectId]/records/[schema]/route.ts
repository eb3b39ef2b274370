import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readRecordRequest } from "@/lib/files/read-record-request";
import { createRecord } from "@/lib/records-service/create-record";
import { listRecords } from "@/lib/records-service/list-records";
import { parseListQuery } from "@/lib/records-service/parse-list-query";
import { loadRecordRouteContext } from "../_lib/record-route-context";

type Params = { projectId: string; schema: string };

/**
 * `GET /records/:schema`: filter[field]=v, filter[field][op]=v (eq ne gt gte lt lte in contains),
 * search, sort, page, perPage (≤ 100), expand, total=false → `{ data, meta: { page, perPage, total } }`.
 */
export const GET = withProjectAuth<Params>(
  async ({ request, runtime, params, json }) => {
    const context = await loadRecordRouteContext(runtime, params.schema);
    const query = parseListQuery({ schema: context.schema, params: new URL(request.url).searchParams });
    return json(await listRecords({ ...context, query, signal: request.signal }));
  },
  { permission: "records.read" },
);

/**
 * `POST /records/:schema` → 201 with the record. JSON, or multipart/form-data with files for file
 * fields (see lib/files/read-record-request.ts).
 */
export const POST = withProjectAuth<Params>(
  async ({ request, project, runtime, params, json }) => {
    const context = await loadRecordRouteContext(runtime, params.schema);
    const { values, uploads } = await readRecordRequest(request, { schema: context.schema, schemas: context.schemas });
    // No request signal for writes: a client that goes away does not leave a half-known outcome behind.
    const record = await createRecord({ ...context, projectId: project.id, origin: "api", input: values, uploads });
    return json(record, { status: 201, headers: { location: `${new URL(request.url).pathname}/${record.id}` } });
  },
  { permission: "records.create" },
);
