import { getAuthSchemaContextOrThrow, type AuthSchemaContext } from "@/lib/end-users/auth-schema-context";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";
import { handleApiError } from "./handle-api-error";

/** Request bodies of the end-user routes are at most this large (docs/DESIGN.md section 6). */
export const END_USER_BODY_LIMIT_BYTES = 100_000;

export interface EndUserRouteParams {
  projectId: string;
  /** The auth schema's name. */
  schema: string;
}

export interface EndUserRouteContext {
  request: Request;
  auth: AuthSchemaContext;
  clientIp: string;
}

/*
 * Sites call these routes from the browser on their own origin, with bearer tokens in headers and
 * never cookies: any origin may call them, and no credentials are involved (so "*" grants nothing
 * a server-side caller does not already have).
 */
const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "retry-after",
};

function withCommonHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  // Answers carry session tokens and profiles: never stored by caches.
  response.headers.set("cache-control", "no-store");
  return response;
}

/**
 * The wrapper of the public end-user auth routes (no API key: end users call them). Awaits the
 * params, loads the project and the auth schema (one 404 body whether the project, the schema or
 * its kind is wrong), reads the client IP for rate limits, and maps every error with
 * handleApiError. Adds CORS (any origin) and Cache-Control: no-store to every answer.
 */
export function withEndUserRoute(
  handler: (context: EndUserRouteContext) => Promise<Response>,
): (request: Request, context: { params: Promise<EndUserRouteParams> }) => Promise<Response> {
  return async (request, context) => {
    try {
      const params = await context.params;
      const auth = await getAuthSchemaContextOrThrow({ projectId: params.projectId, schemaName: params.schema });
      return withCommonHeaders(await handler({ request, auth, clientIp: getRequestClientIp(request) }));
    } catch (error) {
      return withCommonHeaders(handleApiError(error, request));
    }
  };
}

/** The CORS preflight answer of the end-user routes (no database work). */
export function endUserPreflight(methods: string): () => Promise<Response> {
  return async () =>
    new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        "access-control-allow-methods": `${methods}, OPTIONS`,
        "access-control-allow-headers": "authorization, content-type",
        "access-control-max-age": "600",
      },
    });
}
