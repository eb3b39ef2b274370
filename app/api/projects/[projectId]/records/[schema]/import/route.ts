import { withProjectAuth } from "@/lib/http/with-project-auth";
import { readNdjsonBody } from "@/lib/http/read-ndjson-body";
import { importRecords } from "@/lib/records-service/import-records";
import { assertOnlyParameters, loadRecordRouteContext } from "../../_lib/record-route-context";

type Params = { projectId: string; schema: string };

/**
 * `POST /records/:schema/import` (records.create): `Content-Type: application/x-ndjson`, one JSON
 * object per line (blank lines skipped), each checked exactly as a single create; answers 200
 * `{imported, failedCount, failed: [{line, issues: [{path, message}]}]}` with the first 100 failed
 * lines. The body is read as it arrives (the 100 KB body limit does not apply); the caps are
 * 1,000,000 lines per import (past it: 413, after what came before was imported) and 100 KB per line
 * (a longer line fails). Written in batches of 1,000 records; the batches stay written if the
 * import stops part way. File fields take ids of files already uploaded for that field, or null.
 * Imported records trigger no automations (no record events). Anything but NDJSON: 415.
 * See lib/records-service/import-records.ts.
 */
export const POST = withProjectAuth<Params>(
  async ({ request, runtime, params, json }) => {
    assertOnlyParameters(new URL(request.url).searchParams, []);
    const { store, schema, schemas } = await loadRecordRouteContext(runtime, params.schema);
    const source = readNdjsonBody(request);
    // No request signal: a client that goes away ends the body, which stops the import between batches.
    return json(await importRecords({ store, schema, schemas, source }));
  },
  { permission: "records.create" },
);
