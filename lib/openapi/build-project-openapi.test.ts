import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { endpointInputSchema, type EndpointDefinition } from "@/lib/endpoints/endpoint-definition";
import { parseListQuery } from "@/lib/records-service/parse-list-query";
import { parseSchemaDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { buildProjectOpenApi } from "./build-project-openapi";
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from "./openapi-document";
import { OPENAPI_ENDPOINTS, OPENAPI_SCHEMAS, UNCOVERED_FIELD_TYPES } from "./testing/openapi-fixtures";

const schemas: SchemaDefinition[] = OPENAPI_SCHEMAS.map((schema) => parseSchemaDefinition(schema));
const endpoints: EndpointDefinition[] = OPENAPI_ENDPOINTS.map((fixture, index) => ({
  ...endpointInputSchema.parse(fixture),
  id: `ep_${index}`,
  projectId: "prj_docs",
  version: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
}));

function build(overrides: Partial<Parameters<typeof buildProjectOpenApi>[0]> = {}): OpenApiDocument {
  return buildProjectOpenApi({
    project: { id: "prj_docs", name: "Docs" },
    schemas,
    endpoints,
    appUrl: "https://app.example",
    invocationUrl: "https://app.example",
    ...overrides,
  });
}

async function expectValidOpenApi31(document: OpenApiDocument): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
  // Every internal $ref points at something.
  expect(() => validator.resolveRefs()).not.toThrow();
}

function operation(document: OpenApiDocument, path: string, method: "get" | "post" | "put" | "patch" | "delete"): OpenApiOperation {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
}

describe("buildProjectOpenApi", () => {
  it("covers every field type in its fixture", () => {
    expect(UNCOVERED_FIELD_TYPES).toEqual([]);
  });

  it("writes a valid OpenAPI 3.1 document for a project with every field type and endpoint option", async () => {
    await expectValidOpenApi31(build());
  });

  it("is checked by a validator that does refuse broken documents", async () => {
    const broken = structuredClone(build()) as unknown as { paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>> };
    delete broken.paths["/fn/export"]!.get!.responses["200"]!.description;
    const result = await new Validator().validate(broken as unknown as Record<string, unknown>);
    expect(result.valid).toBe(false);
    const dangling = structuredClone(build());
    dangling.components.schemas = { ...dangling.components.schemas, "articles.record": { $ref: "#/components/schemas/nowhere" } };
    const validator = new Validator();
    await validator.validate(dangling as unknown as Record<string, unknown>);
    expect(() => validator.resolveRefs()).toThrow();
  });

  it("writes valid documents for an empty project and with a separate invocation origin", async () => {
    await expectValidOpenApi31(build({ schemas: [], endpoints: [] }));
    const separate = build({ invocationUrl: "https://fn.example/" });
    await expectValidOpenApi31(separate);
    expect(separate.servers).toEqual([{ url: "https://app.example/api/projects/prj_docs" }]);
    expect(separate.paths["/fn/export"]?.servers).toEqual([{ url: "https://fn.example/api/projects/prj_docs", description: "The invocation origin" }]);
    expect(separate.paths["/auth/members/login"]?.servers?.[0]?.url).toBe("https://fn.example/api/projects/prj_docs");
    expect(separate.paths["/records/articles"]?.servers).toBeUndefined();
  });

  it("describes every field as JSON Schema", () => {
    const schemasOf = build().components.schemas;
    const record = schemasOf["articles.record"] as { properties: Record<string, JsonSchema>; required: string[] };
    const p = record.properties;
    expect(p.title).toEqual({ type: "string", minLength: 1, maxLength: 120, pattern: "^[A-Z]" });
    expect(p.summary).toEqual({ type: ["string", "null"], maxLength: 2000 });
    expect(p.price).toEqual({ type: ["number", "null"], minimum: 0, default: 0 });
    expect(p.quantity).toMatchObject({ type: ["integer", "null"], minimum: 0, maximum: 1000 });
    expect(p.published).toEqual({ type: ["boolean", "null"], default: false });
    expect(p.publishedAt).toMatchObject({ type: ["string", "null"], format: "date-time" });
    expect(p.contact).toMatchObject({ type: ["string", "null"], format: "email" });
    expect(p.website).toMatchObject({ type: ["string", "null"], format: "uri" });
    expect(p.status).toEqual({ type: ["string", "null"], enum: ["draft", "live", null], default: "draft" });
    expect(p.extra).toEqual({ description: "Any JSON value." });
    expect(p.author).toMatchObject({ type: ["string", "null"] });
    expect(p.related).toMatchObject({ type: "array", items: { type: "string" }, maxItems: 10 });
    expect(p.seo).toEqual({ oneOf: [{ $ref: "#/components/schemas/component.seo" }, { type: "null" }] });
    expect(p.links).toEqual({ type: "array", items: { $ref: "#/components/schemas/component.link" }, maxItems: 5 });
    expect(p.blocks).toMatchObject({
      type: "array",
      items: {
        oneOf: [
          { allOf: [{ properties: { __component: { const: "seo" } }, required: ["__component"] }, { $ref: "#/components/schemas/component.seo" }] },
          { allOf: [{ properties: { __component: { const: "link" } } }, { $ref: "#/components/schemas/component.link" }] },
        ],
      },
    });
    expect(p.cover).toMatchObject({ type: ["string", "null"] });
    expect(p.expand).toMatchObject({ properties: { author: { oneOf: [{ $ref: "#/components/schemas/authors.record" }, { type: "null" }] } } });
    expect(record.required).toEqual(expect.arrayContaining(["id", "createdAt", "updatedAt", "title", "blocks"]));

    // Create bodies require what has no default; update bodies require nothing; neither takes system fields.
    const create = schemasOf["articles.create"] as { properties: Record<string, JsonSchema>; required: string[]; additionalProperties: boolean };
    expect(create.required).toEqual(["title"]);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.id).toBeUndefined();
    expect(schemasOf["articles.update"]).not.toHaveProperty("required");
    expect(schemasOf["component.seo"]).toMatchObject({ required: ["metaTitle"] });
    // End users: email and password to register, the profile never has the password.
    expect(schemasOf["members.create"]).toMatchObject({ required: ["email", "password", "displayName"] });
    expect(Object.keys((schemasOf["members.record"] as { properties: object }).properties)).toEqual([
      "id",
      "email",
      "emailVerified",
      "displayName",
      "plan",
      "createdAt",
      "updatedAt",
    ]);
  });

  it("documents the list parameters the records API really accepts", () => {
    const list = operation(build(), "/records/articles", "get");
    const names = (list.parameters ?? []).map((parameter) => parameter.name);
    expect(names).toEqual(["filter", "search", "sort", "page", "perPage", "expand", "total"]);
    const filter = list.parameters!.find((parameter) => parameter.name === "filter") as OpenApiParameter;
    const filterable = filter.schema.properties as Record<string, { oneOf: [JsonSchema, { properties: Record<string, JsonSchema> }] }>;
    // Relations to many, json, components and dynamic zones cannot be filtered.
    expect(Object.keys(filterable)).not.toEqual(expect.arrayContaining(["related"]));
    for (const name of ["related", "extra", "seo", "links", "blocks"]) expect(filterable[name], name).toBeUndefined();

    const article = schemas.find((schema) => schema.name === "articles")!;
    const sample: Record<string, string> = {
      price: "3",
      quantity: "2",
      published: "true",
      publishedAt: "2025-01-01T00:00:00Z",
      createdAt: "2025-01-01T00:00:00Z",
      updatedAt: "2025-01-01T00:00:00Z",
      status: "live",
    };
    for (const [field, property] of Object.entries(filterable)) {
      for (const op of Object.keys(property.oneOf[1].properties)) {
        const params = new URLSearchParams({ [`filter[${field}][${op}]`]: sample[field] ?? "x" });
        expect(() => parseListQuery({ schema: article, params }), `filter[${field}][${op}]`).not.toThrow();
      }
    }
    // And the query parser refuses an operator the document does not list.
    expect(filterable.published!.oneOf[1].properties.gt).toBeUndefined();
    expect(() => parseListQuery({ schema: article, params: new URLSearchParams({ "filter[published][gt]": "true" }) })).toThrow();
  });

  it("documents the end-user auth routes of every auth schema", () => {
    const document = build();
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/auth/"))).toEqual([
      "/auth/members/register",
      "/auth/members/login",
      "/auth/members/verify-email",
      "/auth/members/request-password-reset",
      "/auth/members/reset-password",
      "/auth/members/me",
    ]);
    expect(operation(document, "/auth/members/login", "post").security).toEqual([]);
    expect(operation(document, "/auth/members/me", "get").security).toEqual([{ endUser_members: [] }]);
    expect(operation(document, "/auth/members/register", "post").responses["201"]).toBeDefined();
    expect(document.components.securitySchemes.endUser_members).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("documents every enabled custom endpoint with its auth, response and errors", () => {
    const document = build();
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/fn/"))).toEqual(["/fn/articles", "/fn/export", "/fn/feed", "/fn/live-articles", "/fn/profile"]);
    expect(document.paths["/fn/switched-off"]).toBeUndefined();

    const live = operation(document, "/fn/live-articles", "get");
    expect(live).toMatchObject({ summary: "Live articles", tags: ["Articles"], security: [], "x-cache-seconds": 60, "x-allowed-origins": ["https://shop.example"] });
    expect(Object.keys(live.responses)).toEqual(["200", "404", "429", "500"]);
    expect(live.responses["200"]).toMatchObject({ headers: { "Cache-Control": { schema: { const: "public, max-age=60" } }, "x-source": {} }, content: { "application/json": {} } });
    expect(live.parameters).toEqual([expect.objectContaining({ name: "query", in: "query", style: "form" })]);
    expect(live.requestBody).toBeUndefined();

    const create = operation(document, "/fn/articles", "post");
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(create.responses)).toEqual(["201", "400", "401", "403", "404", "413", "422", "429", "500"]);
    expect(create.requestBody?.content["application/json"]?.schema).toEqual({ type: "object", additionalProperties: true });

    const replace = operation(document, "/fn/profile", "put");
    expect(replace.security).toEqual([{ endUser_members: [] }]);
    expect(replace.responses["200"]).toMatchObject({ content: { "text/html": { schema: { type: "string" } } } });
    expect(replace.responses["402"]).toBeDefined();
    expect(replace.responses["403"]).toBeUndefined();
    expect(operation(document, "/fn/profile", "delete").responses["204"]).toMatchObject({ content: { "text/plain": {} } });
    expect(operation(document, "/fn/feed", "patch").responses["200"]).toMatchObject({ content: { "application/xml": {} } });
    expect(operation(document, "/fn/export", "get").responses["200"]).toMatchObject({ content: { "text/csv": {} } });

    // The bodies of docs/DESIGN.md "Invocation errors", without the platform's code.
    expect(document.components.responses.InvocationFailed?.content?.["application/json"]?.example).toEqual({ error: "endpoint execution failed", executionId: "exe_…" });
    expect(document.components.responses.InvocationConditionNotMet?.content?.["application/json"]?.example).toEqual({ error: "condition not met" });
    expect(document.components.responses.InvocationRateLimited?.headers).toHaveProperty("Retry-After");
    expect(document.components.schemas.InvocationError).toMatchObject({ required: ["error"] });
    expect(document.components.schemas.Error).toMatchObject({ required: ["error", "code"] });
  });

  it("types the query and body of endpoints that declare an input", async () => {
    const typed = {
      ...endpoints[1]!,
      input: { query: { dryRun: { type: "boolean" } }, body: { title: { type: "string", required: true, min: 1, max: 80, pattern: "^\\w" }, tags: { type: "array", max: 3 } } },
    } as EndpointDefinition;
    const document = build({ endpoints: [typed] });
    await expectValidOpenApi31(document);
    const create = operation(document, "/fn/articles", "post");
    expect(create.parameters).toEqual([{ name: "dryRun", in: "query", required: false, schema: { type: "boolean" } }]);
    expect(create.requestBody).toEqual({
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { title: { type: "string", minLength: 1, maxLength: 80, pattern: "^\\w" }, tags: { type: "array", maxItems: 3 } },
            required: ["title"],
          },
        },
      },
    });
  });

  it("documents every input option, the query lists and the 400 of a refused call", async () => {
    const everyOption = {
      ...endpoints[1]!,
      input: {
        query: {
          page: { type: "integer", required: true, min: 1, max: 500 },
          ratio: { type: "number", min: 0.5 },
          sort: { type: "string", enum: ["new", "old"], pattern: "^[a-z]+$", min: 3, max: 3 },
          tag: { type: "array", min: 1, max: 5 },
          dryRun: { type: "boolean" },
        },
        body: {
          email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$" },
          seats: { type: "integer", enum: [1, 5, 10] },
          price: { type: "number", min: 0, max: 99.5 },
          agree: { type: "boolean", required: true },
          tags: { type: "array", min: 1, max: 3 },
          meta: { type: "object" },
        },
      },
    } as EndpointDefinition;
    const document = build({ endpoints: [everyOption, { ...endpoints[0]!, method: "GET", slug: "list", input: { query: { limit: { type: "integer" } } } } as EndpointDefinition] });
    await expectValidOpenApi31(document);
    const create = operation(document, "/fn/articles", "post");
    expect(create.parameters).toContainEqual({ name: "page", in: "query", required: true, schema: { type: "integer", minimum: 1, maximum: 500 } });
    expect(create.parameters).toContainEqual({
      name: "tag",
      in: "query",
      required: false,
      style: "form",
      explode: true,
      description: "Repeat the parameter for each item.",
      schema: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
    });
    expect(create.requestBody?.content["application/json"]?.schema).toMatchObject({
      required: ["email", "agree"],
      properties: { seats: { type: "integer", enum: [1, 5, 10] }, meta: { type: "object" } },
    });
    expect(create.responses["400"]).toEqual({ $ref: "#/components/responses/InvocationInvalidInput" });
    expect(operation(document, "/fn/list", "get").responses["400"]).toEqual({ $ref: "#/components/responses/InvocationInvalidInput" });
    expect(document.components.schemas.InvocationInvalidRequest).toMatchObject({ required: ["error", "issues"], properties: { error: { const: "invalid request" } } });
  });
});
