import type { EndpointDefinition } from "@/lib/endpoints/endpoint-definition";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { describeCustomEndpoints } from "./describe-custom-endpoints";
import { describeEndUserAuth } from "./describe-end-user-auth";
import { describeRecordSchemas } from "./describe-record-schemas";
import { describeRecordsApi } from "./describe-records-api";
import { API_KEY_SCHEME, ERROR_RESPONSES, ERROR_SCHEMAS, HTTP_METHODS, endUserScheme, type OpenApiDocument, type OpenApiPathItem } from "./openapi-document";

export interface BuildProjectOpenApiOptions {
  project: { id: string; name: string };
  /** Every schema of the project (collections, auth schemas, components). */
  schemas: readonly SchemaDefinition[];
  /** The project's endpoints; disabled ones are left out. */
  endpoints: readonly EndpointDefinition[];
  /** The dashboard's base URL (APP_URL), where the records API answers. */
  appUrl: string;
  /** Where custom endpoints and the end-user auth routes answer (INVOCATION_URL, else appUrl). */
  invocationUrl: string;
}

/** The version of the document's shape; the project's own content has no version of its own. */
const DOCUMENT_VERSION = "1.0.0";

/**
 * The OpenAPI 3.1 document of one project: the records API of its collections, the end-user auth
 * routes of its auth schemas and its enabled custom endpoints, with their security schemes and
 * error bodies. A pure function of its options: the route (and the dashboard page) load them.
 */
export function buildProjectOpenApi(options: BuildProjectOpenApiOptions): OpenApiDocument {
  const { project, schemas, endpoints } = options;
  const base = (url: string) => `${url.replace(/\/+$/, "")}/api/projects/${project.id}`;
  const separateInvocationOrigin = base(options.invocationUrl) !== base(options.appUrl);
  const onInvocationOrigin = (paths: Record<string, OpenApiPathItem>) =>
    separateInvocationOrigin
      ? Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, { servers: [{ url: base(options.invocationUrl), description: "The invocation origin" }], ...item }]))
      : paths;

  const paths = { ...describeRecordsApi(schemas), ...onInvocationOrigin(describeEndUserAuth(schemas)), ...onInvocationOrigin(describeCustomEndpoints(endpoints)) };
  const authSchemas = schemas.filter((schema) => schema.kind === "auth").map((schema) => schema.name);
  const securitySchemes: OpenApiDocument["components"]["securitySchemes"] = {
    [API_KEY_SCHEME]: { type: "http", scheme: "bearer", description: "A project API key (Authorization: Bearer <key>), with the permission the operation names." },
  };
  for (const name of authSchemas) {
    securitySchemes[endUserScheme(name)] = {
      type: "http",
      scheme: "bearer",
      description: `An end user's token from POST /auth/${name}/login: valid 7 days, only for this project and the auth schema ${name}.`,
    };
  }
  const tags = [...new Set(Object.values(paths).flatMap((item) => HTTP_METHODS.flatMap((method) => item[method]?.tags ?? [])))].map((name) => ({ name }));

  return {
    openapi: "3.1.0",
    info: {
      title: `${project.name} API`,
      version: DOCUMENT_VERSION,
      description: `The records API, end-user auth and custom endpoints of the project ${project.name}. Platform errors answer {error, code, issues?, field?}; custom endpoints answer the invocation errors {error} without a code.`,
    },
    servers: [{ url: base(options.appUrl) }],
    security: [{ [API_KEY_SCHEME]: [] }],
    tags,
    paths,
    components: {
      schemas: { ...ERROR_SCHEMAS, ...describeRecordSchemas(schemas).schemas },
      responses: ERROR_RESPONSES,
      securitySchemes,
    },
  };
}
