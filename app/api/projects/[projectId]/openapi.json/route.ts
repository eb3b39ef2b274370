import { getProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";
import { handleApiError } from "@/lib/http/handle-api-error";
import { withProjectAuth } from "@/lib/http/with-project-auth";
import { hasPrefix } from "@/lib/ids";
import { buildRuntimeOpenApi } from "@/lib/openapi/build-runtime-openapi";
import { enforcePublicOpenApiRateLimit } from "@/lib/openapi/enforce-public-openapi-rate-limit";

type Params = { projectId: string };

const authenticated = withProjectAuth<Params>(async ({ runtime }) => Response.json(buildRuntimeOpenApi(await runtime())), {
  permission: ["endpoints.read", "records.read"],
});

/**
 * `GET /openapi.json`: the project's OpenAPI 3.1 document (endpoints.read or records.read). A project
 * that made it public (settings, `openapiPublic`) serves it to callers without credentials, counted
 * per client IP; a caller who presents a key is still checked, so a bad key stays a 401.
 */
export async function GET(request: Request, context: { params: Promise<Params> }): Promise<Response> {
  if (!request.headers.has("authorization")) {
    try {
      const { projectId } = await context.params;
      const runtime = hasPrefix(projectId, "project") ? await getProjectRuntime(projectId) : null;
      if (runtime?.project.openapiPublic) {
        await enforcePublicOpenApiRateLimit({ projectId, clientIp: getRequestClientIp(request) });
        return Response.json(buildRuntimeOpenApi(runtime), { headers: { "access-control-allow-origin": "*", "cache-control": "no-cache" } });
      }
    } catch (error) {
      return handleApiError(error, request);
    }
  }
  return authenticated(request, context);
}
