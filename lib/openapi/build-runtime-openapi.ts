import { getAppUrl } from "@/lib/app-url";
import type { ProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { getInvocationBaseUrl } from "@/lib/http/invocation-origin";
import { buildProjectOpenApi } from "./build-project-openapi";
import type { OpenApiDocument } from "./openapi-document";

/** The OpenAPI document of a project from its cached runtime (its schemas and enabled endpoints), at the configured URLs. */
export function buildRuntimeOpenApi(runtime: Pick<ProjectRuntime, "project" | "schemas" | "routes">): OpenApiDocument {
  return buildProjectOpenApi({
    project: runtime.project,
    schemas: runtime.schemas,
    endpoints: [...runtime.routes.values()].map((route) => route.definition),
    appUrl: getAppUrl(),
    invocationUrl: getInvocationBaseUrl(),
  });
}
