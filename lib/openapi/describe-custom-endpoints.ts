import type { EndpointDefinition } from "@/lib/endpoints/endpoint-definition";
import { declaresInputFields, endpointInputSpecSchema, type InputField, type InputLocation } from "@/lib/endpoints/endpoint-input";
import {
  API_KEY_SCHEME,
  endUserScheme,
  responseRef,
  type JsonSchema,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiPathItem,
  type OpenApiResponse,
} from "./openapi-document";

type EndpointInputSpec = NonNullable<EndpointDefinition["input"]>;

/** The endpoint's typed input (lib/endpoints/endpoint-input.ts); null when it declares none or the stored one no longer validates. */
function readTypedInput(endpoint: EndpointDefinition): EndpointInputSpec | null {
  if (endpoint.input === undefined || endpoint.input === null) return null;
  const parsed = endpointInputSpecSchema.safeParse(endpoint.input);
  return parsed.success && declaresInputFields(parsed.data) ? parsed.data : null;
}

/** min/max bound values of numbers, lengths of strings and item counts of arrays (docs/ARCHITECTURE.md "Typed endpoint inputs"). */
function describeInputSpec(spec: InputField, location: InputLocation): JsonSchema {
  const [minKey, maxKey] = spec.type === "string" ? ["minLength", "maxLength"] : spec.type === "array" ? ["minItems", "maxItems"] : ["minimum", "maximum"];
  return {
    type: spec.type,
    ...(spec.type === "array" && location === "query" ? { items: { type: "string" } } : {}),
    ...(spec.enum ? { enum: spec.enum } : {}),
    ...(spec.min !== undefined ? { [minKey]: spec.min } : {}),
    ...(spec.max !== undefined ? { [maxKey]: spec.max } : {}),
    ...(spec.pattern !== undefined && spec.type === "string" ? { pattern: spec.pattern } : {}),
  };
}

const FREE_FORM_QUERY: OpenApiParameter = {
  name: "query",
  in: "query",
  style: "form",
  explode: true,
  description: "Any query parameters; the flow reads them as `query.<name>` (a repeated parameter becomes a list).",
  schema: { type: "object", additionalProperties: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] } },
};

function queryParameters(input: EndpointInputSpec | null): OpenApiParameter[] {
  if (!input?.query) return [FREE_FORM_QUERY];
  return Object.entries(input.query).map(([name, spec]) => ({
    name,
    in: "query",
    required: spec.required === true,
    ...(spec.type === "array" ? { style: "form" as const, explode: true, description: "Repeat the parameter for each item." } : {}),
    schema: describeInputSpec(spec, "query"),
  }));
}

function requestBody(input: EndpointInputSpec | null): NonNullable<OpenApiOperation["requestBody"]> {
  if (!input?.body) {
    return {
      required: false,
      description: "A JSON object of at most 100 KB; the flow reads it as `body`.",
      content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
    };
  }
  const required = Object.entries(input.body)
    .filter(([, spec]) => spec.required)
    .map(([name]) => name);
  return {
    required: required.length > 0,
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: Object.fromEntries(Object.entries(input.body).map(([name, spec]) => [name, describeInputSpec(spec, "body")])),
          ...(required.length > 0 ? { required } : {}),
        },
      },
    },
  };
}

/** The stops of the flow's enabled condition steps: the status each answers with, when it has its own. */
function conditionStops(endpoint: EndpointDefinition): { defaultStop: boolean; ownStatuses: number[] } {
  let defaultStop = false;
  const ownStatuses: number[] = [];
  for (const step of endpoint.steps) {
    if (typeof step !== "object" || step === null) continue;
    const candidate = step as { type?: unknown; enabled?: unknown; stopStatus?: unknown };
    if (candidate.type !== "condition" || candidate.enabled === false) continue;
    if (typeof candidate.stopStatus === "number") ownStatuses.push(candidate.stopStatus);
    else defaultStop = true;
  }
  return { defaultStop, ownStatuses };
}

function successResponse(endpoint: EndpointDefinition): OpenApiResponse {
  const { contentType, headers } = endpoint.response;
  const ownHeaders = Object.fromEntries(Object.keys(headers).map((name) => [name, { description: "Set by the endpoint.", schema: { type: "string" } }]));
  const cacheHeader: OpenApiResponse["headers"] =
    endpoint.cacheSeconds > 0
      ? {
          "Cache-Control": {
            description: `Answers are cached for ${endpoint.cacheSeconds} seconds (per query string).`,
            schema: { type: "string", const: `public, max-age=${endpoint.cacheSeconds}` },
          },
        }
      : {};
  return {
    description: "The endpoint's response.",
    headers: { ...cacheHeader, ...ownHeaders, "X-Execution-Id": { description: "The execution log of this call (absent on cached answers).", schema: { type: "string" } } },
    content: { [contentType]: { schema: contentType === "application/json" ? { description: "The JSON the endpoint's response template renders." } : { type: "string" } } },
  };
}

function security(endpoint: EndpointDefinition): Array<Record<string, string[]>> {
  if (endpoint.auth === "api_key") return [{ [API_KEY_SCHEME]: [] }];
  if (endpoint.auth === "end_user" && endpoint.authSchema) return [{ [endUserScheme(endpoint.authSchema)]: [] }];
  return [];
}

const AUTH_LABELS = { public: "Public: no credentials.", api_key: "A project API key with endpoints.invoke.", end_user: "An end user's token" } as const;

function describeOperation(endpoint: EndpointDefinition): OpenApiOperation {
  const input = readTypedInput(endpoint);
  const hasBody = endpoint.method === "POST" || endpoint.method === "PUT" || endpoint.method === "PATCH";
  const stops = conditionStops(endpoint);
  const responses: OpenApiOperation["responses"] = { [String(endpoint.response.status)]: successResponse(endpoint) };
  const add = (status: number | string, response: OpenApiOperation["responses"][string]) => {
    responses[String(status)] ??= response;
  };
  if (input) add(400, responseRef("InvocationInvalidInput"));
  else if (hasBody) add(400, responseRef("InvocationBadRequest"));
  if (endpoint.auth !== "public") add(401, responseRef("InvocationUnauthorized"));
  if (endpoint.auth === "api_key") add(403, responseRef("InvocationForbidden"));
  add(404, responseRef("InvocationNotFound"));
  if (hasBody) add(413, responseRef("InvocationPayloadTooLarge"));
  if (stops.defaultStop) add(422, responseRef("InvocationConditionNotMet"));
  for (const status of stops.ownStatuses) add(status, { description: "A condition step stopped the flow with its own status and body." });
  add(429, responseRef("InvocationRateLimited"));
  add(500, responseRef("InvocationFailed"));
  const auth = endpoint.auth === "end_user" ? `${AUTH_LABELS.end_user} (auth schema ${endpoint.authSchema}).` : AUTH_LABELS[endpoint.auth];
  return {
    operationId: `fn_${endpoint.method.toLowerCase()}_${endpoint.slug.replaceAll("-", "_")}`,
    summary: endpoint.name,
    description: auth,
    tags: [endpoint.group ?? "Custom endpoints"],
    security: security(endpoint),
    parameters: queryParameters(input),
    ...(hasBody ? { requestBody: requestBody(input) } : {}),
    responses,
    "x-cache-seconds": endpoint.cacheSeconds,
    "x-allowed-origins": endpoint.allowedOrigins,
  };
}

/**
 * The project's enabled custom endpoints (`/fn/<slug>`), one operation per method: auth scheme,
 * query and body (typed when the endpoint declares `input`), the response's status and content type,
 * and the invocation errors of docs/DESIGN.md that the endpoint can answer.
 */
export function describeCustomEndpoints(endpoints: readonly EndpointDefinition[]): Record<string, OpenApiPathItem> {
  const paths: Record<string, OpenApiPathItem> = {};
  const enabled = endpoints.filter((endpoint) => endpoint.enabled).sort((a, b) => a.slug.localeCompare(b.slug) || a.method.localeCompare(b.method));
  for (const endpoint of enabled) {
    const path = `/fn/${endpoint.slug}`;
    const item = (paths[path] ??= {});
    item[endpoint.method.toLowerCase() as "get"] = describeOperation(endpoint);
  }
  return paths;
}
