import { ERROR_CODES } from "@/lib/errors";

/**
 * The parts of an OpenAPI 3.1 document this module writes. JSON Schema objects stay loose
 * (`JsonSchema`): OpenAPI 3.1 takes JSON Schema 2020-12 as it is.
 */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: "query" | "path" | "header";
  description?: string;
  required?: boolean;
  style?: "form" | "deepObject" | "simple";
  explode?: boolean;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema: JsonSchema;
  example?: unknown;
  encoding?: Record<string, { contentType: string }>;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description?: string; schema: JsonSchema }>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `[]`: no credentials; absent: the document's default (an API key). */
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; description?: string; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse | { $ref: string }>;
  /** Platform-specific facts the dashboard shows (cache, allowed origins). */
  [extension: `x-${string}`]: unknown;
}

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export type OpenApiPathItem = { servers?: Array<{ url: string; description?: string }>; parameters?: OpenApiParameter[] } & Partial<Record<HttpMethod, OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    securitySchemes: Record<string, { type: "http"; scheme: "bearer"; bearerFormat?: string; description: string }>;
  };
}

export const HTTP_METHODS: readonly HttpMethod[] = ["get", "post", "put", "patch", "delete"];

/** The security scheme of the project's API keys (management, records, api_key endpoints). */
export const API_KEY_SCHEME = "apiKey";

/** The security scheme of one auth schema's end-user tokens; names are `[a-z][a-z0-9_]*`, valid in a component key. */
export function endUserScheme(authSchema: string): string {
  return `endUser_${authSchema}`;
}

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/**
 * Error bodies: the platform APIs' `{error, code, issues?, field?}` (lib/errors.ts `errorBody`), and
 * the custom endpoints' bodies of docs/DESIGN.md "Invocation errors", which carry no code.
 */
export const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ErrorIssue: {
    type: "object",
    properties: { path: { type: "string" }, message: { type: "string" } },
    required: ["path", "message"],
  },
  Error: {
    type: "object",
    description: "The error body of the platform's own APIs (records, end-user auth, management).",
    properties: {
      error: { type: "string", description: "A sentence for people; server-side failures never say more than `internal error`." },
      code: { type: "string", enum: Object.keys(ERROR_CODES), description: "A closed set of codes, each with one HTTP status." },
      issues: { type: "array", items: schemaRef("ErrorIssue"), description: "Per-field problems (validation failures, bad query parameters)." },
      field: { type: "string", description: "For unique violations: the field whose value is taken." },
    },
    required: ["error", "code"],
  },
  InvocationError: {
    type: "object",
    description: 'The error body of a custom endpoint call: `{"error": "..."}`, without a code.',
    properties: {
      error: { type: "string" },
      issues: { type: "array", items: schemaRef("ErrorIssue") },
    },
    required: ["error"],
  },
  InvocationInvalidRequest: {
    type: "object",
    description: "A call that breaks the endpoint's declared input, refused before any step runs: every problem (at most 20), by path (`query.page`, `body.email`).",
    properties: {
      error: { const: "invalid request" },
      issues: { type: "array", items: schemaRef("ErrorIssue"), minItems: 1, maxItems: 20 },
    },
    required: ["error", "issues"],
    additionalProperties: false,
  },
  InvocationFailure: {
    type: "object",
    description: "A step of the endpoint's flow failed; the execution log has the details.",
    properties: { error: { const: "endpoint execution failed" }, executionId: { type: "string" } },
    required: ["error", "executionId"],
  },
};

const retryAfter = { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer", minimum: 1 } } };

function platformError(description: string, example: { error: string; code: keyof typeof ERROR_CODES }, headers?: OpenApiResponse["headers"]): OpenApiResponse {
  return { description, ...(headers ? { headers } : {}), content: { "application/json": { schema: schemaRef("Error"), example } } };
}

function invocationError(description: string, example: unknown, headers?: OpenApiResponse["headers"]): OpenApiResponse {
  return { description, ...(headers ? { headers } : {}), content: { "application/json": { schema: schemaRef("InvocationError"), example } } };
}

/** Shared responses, referenced by name from the operations. */
export const ERROR_RESPONSES: Record<string, OpenApiResponse> = {
  BadRequest: platformError("Malformed request: unknown or invalid query parameters, a body that is not JSON.", {
    error: "page: must be a whole number of at least 1",
    code: "bad_request",
  }),
  Unauthorized: platformError("Credentials missing or invalid.", { error: "authentication required", code: "unauthorized" }),
  Forbidden: platformError("The API key lacks the permission this operation needs.", { error: "the API key lacks the permission records.read", code: "forbidden" }),
  NotFound: platformError("No such project, schema or record.", { error: "project not found", code: "not_found" }),
  Conflict: platformError("A unique field's value is already taken.", { error: "a record with this value already exists", code: "unique_violation" }),
  PayloadTooLarge: platformError("The request body is too large.", { error: "request body is larger than 100000 bytes", code: "payload_too_large" }),
  UnsupportedMediaType: platformError("The content type is not accepted.", { error: "unsupported content type", code: "unsupported_media_type" }),
  ValidationFailed: platformError("The values break the schema; `issues` names each field.", { error: "invalid record", code: "validation_failed" }),
  RateLimited: platformError("Too many requests.", { error: "too many requests", code: "rate_limited" }, retryAfter),
  InternalError: platformError("An unexpected failure; the details stay in the server's logs.", { error: "internal error", code: "internal" }),
  InvocationBadRequest: invocationError("The request body is not a JSON object.", { error: "request body must be a JSON object" }),
  InvocationInvalidInput: {
    description: "The query or body breaks the endpoint's declared input (`issues` lists each problem), or the body is not valid JSON.",
    content: {
      "application/json": {
        schema: { anyOf: [schemaRef("InvocationInvalidRequest"), schemaRef("InvocationError")] },
        example: { error: "invalid request", issues: [{ path: "body.email", message: "is required" }] },
      },
    },
  },
  InvocationUnauthorized: invocationError(
    "Credentials missing or invalid, or the token has expired.",
    { error: "authentication required" },
    {
      "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } },
    },
  ),
  InvocationForbidden: invocationError("The API key lacks the permission endpoints.invoke.", { error: "the API key lacks the permission endpoints.invoke" }),
  InvocationNotFound: invocationError("Unknown slug, wrong method, or the endpoint is disabled.", { error: "not found" }),
  InvocationPayloadTooLarge: invocationError("The request body is over 100 KB.", { error: "request body is larger than 102400 bytes" }),
  InvocationConditionNotMet: invocationError("A condition step stopped the flow.", { error: "condition not met" }),
  InvocationRateLimited: invocationError("The endpoint's rate limit is exceeded.", { error: "rate limit exceeded" }, retryAfter),
  InvocationFailed: {
    description: "A step failed.",
    content: { "application/json": { schema: schemaRef("InvocationFailure"), example: { error: "endpoint execution failed", executionId: "exe_…" } } },
  },
};
