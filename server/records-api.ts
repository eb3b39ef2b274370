import * as collectionRoute from "@/app/api/projects/[projectId]/records/[schema]/route";
import * as recordRoute from "@/app/api/projects/[projectId]/records/[schema]/[recordId]/route";
import * as importRoute from "@/app/api/projects/[projectId]/records/[schema]/import/route";
import { AppError, errorBody } from "@/lib/errors";
import { RECORDS_API_PATH } from "@/lib/http/invocation-origin";
import { API_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { servedOverHttps } from "@/lib/http/served-over-https";
import type { JsonAnswer, ProjectRouteRequestContext } from "@/lib/http/with-project-auth";
import { adapterJsonAnswer } from "./adapter-response";

type RouteHandler<P> = (request: Request, context: ProjectRouteRequestContext<P>) => Promise<Response>;
type CollectionParams = { projectId: string; schema: string };
type RecordParams = CollectionParams & { recordId: string };

const COLLECTION_HANDLERS: Partial<Record<string, RouteHandler<CollectionParams>>> = { GET: collectionRoute.GET, POST: collectionRoute.POST };
const RECORD_HANDLERS: Partial<Record<string, RouteHandler<RecordParams>>> = { GET: recordRoute.GET, PATCH: recordRoute.PATCH, DELETE: recordRoute.DELETE };
/** `/records/:schema/import`: a static segment, which wins over `:recordId` in Next's router too. */
const IMPORT_SEGMENT = "import";
const IMPORT_HANDLERS: Partial<Record<string, RouteHandler<CollectionParams>>> = { POST: importRoute.POST };

/** A records API call, matched to its route handler and parameters. */
type RecordsApiCall = (request: Request) => Promise<Response>;

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The records API's route handler for a call with an API key, or null when the call is one Next
 * should serve (a session cookie's call from the dashboard, a method the route does not have, a
 * path it does not know or cannot decode). The production server (server/route-request.ts) hands
 * these calls to the same route modules Next would, without Next's router and proxy in between:
 * scripts that write records in bulk, and every write that triggers automations, come this way, and
 * so do imports, whose bodies are then streamed with no buffering by Next's proxy (proxy.ts).
 */
export function matchRecordsApiCall(method: string, path: string, authorization: string | null | undefined, json?: JsonAnswer): RecordsApiCall | null {
  if (!authorization || !/^bearer\s/i.test(authorization)) return null;
  const match = RECORDS_API_PATH.exec(path);
  if (!match) return null;
  const projectId = decodeSegment(match[1]!);
  const schema = decodeSegment(match[2]!);
  if (!projectId || !schema) return null;
  if (match[3] === undefined) {
    const handler = COLLECTION_HANDLERS[method];
    return handler ? (request) => handler(request, { params: Promise.resolve({ projectId, schema }), json }) : null;
  }
  const recordId = decodeSegment(match[3]);
  if (recordId === IMPORT_SEGMENT) {
    // Other methods on it are Next's 405, as they would be without this fast path.
    const handler = IMPORT_HANDLERS[method];
    return handler ? (request) => handler(request, { params: Promise.resolve({ projectId, schema }), json }) : null;
  }
  const handler = RECORD_HANDLERS[method];
  return handler && recordId ? (request) => handler(request, { params: Promise.resolve({ projectId, schema, recordId }), json }) : null;
}

/**
 * Serves calls matchRecordsApiCall accepts, with the headers proxy.ts gives route handlers' answers.
 * With the Fetch adapter's Response class (server/adapter-response.ts) the routes' JSON answers are
 * built with it, which the adapter writes as given instead of reading a web Response's stream back.
 */
export function createRecordsApiHandler(responseClass?: typeof Response): (request: Request) => Promise<Response> {
  const json = responseClass ? adapterJsonAnswer(responseClass) : undefined;
  return async (request) => {
    const call = matchRecordsApiCall(request.method, new URL(request.url).pathname, request.headers.get("authorization"), json);
    if (!call) return Response.json(errorBody(new AppError("not_found", "not found")), { status: 404, headers: API_SECURITY_HEADERS });
    const response = await call(request);
    for (const name in API_SECURITY_HEADERS) response.headers.set(name, API_SECURITY_HEADERS[name]!);
    if (servedOverHttps(request.headers)) response.headers.set("strict-transport-security", "max-age=31536000");
    return response;
  };
}
