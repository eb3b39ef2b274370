import type { EndpointInput } from "@/lib/endpoints/endpoint-definition";
import { FIELD_TYPES, type FieldDefinition, type FieldType } from "@/lib/schemas/schema-definition";

/**
 * A project that uses every field type and every endpoint option, as the management API accepts
 * them: the OpenAPI tests build its document (unit) and create it through the API (routes).
 */
export const EVERY_FIELD: readonly FieldDefinition[] = [
  { name: "title", type: "string", required: true, min: 1, max: 120, pattern: "^[A-Z]", indexed: true },
  { name: "summary", type: "text", max: 2000 },
  { name: "body", type: "richtext" },
  { name: "price", type: "number", min: 0, default: 0 },
  { name: "quantity", type: "integer", min: 0, max: 1000 },
  { name: "published", type: "boolean", default: false },
  { name: "publishedAt", type: "datetime", min: "2020-01-01T00:00:00Z" },
  { name: "contact", type: "email", unique: true },
  { name: "website", type: "url" },
  { name: "status", type: "enum", values: ["draft", "live"], default: "draft" },
  { name: "extra", type: "json" },
  { name: "author", type: "relation", target: "authors" },
  { name: "related", type: "relation", target: "articles", many: true, max: 10 },
  { name: "seo", type: "component", component: "seo" },
  { name: "links", type: "component", component: "link", repeatable: true, max: 5 },
  { name: "blocks", type: "dynamic_zone", components: ["seo", "link"] },
  { name: "cover", type: "file", accept: ["image/*"] },
];

// A new field type fails the type check here until the fixture uses it.
const coveredTypes = new Set<FieldType>(EVERY_FIELD.map((field) => field.type));
export const UNCOVERED_FIELD_TYPES = FIELD_TYPES.filter((type) => !coveredTypes.has(type));

/** In creation order: components and relation targets first. */
export const OPENAPI_SCHEMAS = [
  {
    name: "seo",
    kind: "component",
    fields: [
      { name: "metaTitle", type: "string", required: true },
      { name: "noIndex", type: "boolean" },
    ],
  },
  {
    name: "link",
    kind: "component",
    fields: [
      { name: "label", type: "string" },
      { name: "href", type: "url", required: true },
    ],
  },
  { name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] },
  {
    name: "members",
    kind: "auth",
    fields: [
      { name: "displayName", type: "string", required: true },
      { name: "plan", type: "enum", values: ["free", "pro"] },
    ],
  },
  { name: "articles", kind: "collection", fields: EVERY_FIELD },
] as const satisfies ReadonlyArray<{ name: string; kind: "collection" | "auth" | "component"; fields: readonly FieldDefinition[] }>;

type EndpointFixture = Partial<EndpointInput> & Pick<EndpointInput, "name" | "method" | "slug">;

/** Every method, auth mode and response content type; a cached GET, a condition with and without its own stop; every input option. */
export const OPENAPI_ENDPOINTS: readonly EndpointFixture[] = [
  {
    name: "Live articles",
    method: "GET",
    slug: "live-articles",
    auth: "public",
    group: "Articles",
    cacheSeconds: 60,
    allowedOrigins: ["https://shop.example"],
    steps: [{ type: "query", name: "articles", schema: "articles", filters: "status=live", limit: 10 }],
    response: { status: 200, contentType: "application/json", body: "{{steps.articles}}", headers: { "x-source": "articles" } },
  },
  {
    name: "Create article",
    method: "POST",
    slug: "articles",
    auth: "api_key",
    steps: [
      { type: "condition", checks: [{ left: "{{body.title}}", operator: "exists" }] },
      { type: "create", name: "created", schema: "articles", values: { title: "{{body.title}}" } },
    ],
    response: { status: 201, contentType: "application/json", body: "{{steps.created}}", headers: {} },
  },
  {
    name: "Replace profile",
    method: "PUT",
    slug: "profile",
    auth: "end_user",
    authSchema: "members",
    steps: [{ type: "condition", checks: [{ left: "{{user.plan}}", operator: "equals", right: "pro" }], stopStatus: 402, stopBody: '{"error":"upgrade"}' }],
    response: { status: 200, contentType: "text/html", body: "<p>{{user.displayName}}</p>", headers: {} },
  },
  {
    name: "Patch feed",
    method: "PATCH",
    slug: "feed",
    auth: "api_key",
    // Every typed-input option (lib/endpoints/endpoint-input.ts).
    input: {
      query: {
        page: { type: "integer", required: true, min: 1, max: 500 },
        ratio: { type: "number", min: 0.5, max: 2 },
        sort: { type: "string", enum: ["new", "old"], pattern: "^[a-z]+$", min: 3, max: 3 },
        tag: { type: "array", min: 1, max: 5 },
        dryRun: { type: "boolean" },
      },
      body: {
        email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$", min: 3, max: 200 },
        seats: { type: "integer", enum: [1, 5, 10] },
        price: { type: "number", min: 0, max: 99.5 },
        agree: { type: "boolean", required: true },
        tags: { type: "array", min: 1, max: 3 },
        meta: { type: "object" },
      },
    },
    response: { status: 200, contentType: "application/xml", body: "<ok/>", headers: {} },
  },
  { name: "Forget me", method: "DELETE", slug: "profile", auth: "end_user", authSchema: "members", response: { status: 204, contentType: "text/plain", body: "", headers: {} } },
  { name: "Export", method: "GET", slug: "export", auth: "api_key", response: { status: 200, contentType: "text/csv", body: "id\n", headers: {} } },
  { name: "Switched off", method: "GET", slug: "switched-off", auth: "public", enabled: false },
];
