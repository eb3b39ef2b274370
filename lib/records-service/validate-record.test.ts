import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseSchemaDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { checkRecordInput, validateRecordInput, type RecordValidationMode } from "./validate-record";

const seo = parseSchemaDefinition({
  name: "seo",
  kind: "component",
  fields: [
    { name: "title", type: "string", required: true, max: 60 },
    { name: "noindex", type: "boolean", default: false },
  ],
});
const link = parseSchemaDefinition({
  name: "link",
  kind: "component",
  fields: [
    { name: "label", type: "string", required: true },
    { name: "url", type: "url", required: true },
    { name: "target", type: "relation", target: "posts" },
  ],
});
const hero = parseSchemaDefinition({
  name: "hero",
  kind: "component",
  fields: [
    { name: "heading", type: "string", required: true },
    { name: "cta", type: "component", component: "link" },
  ],
});
const quote = parseSchemaDefinition({
  name: "quote",
  kind: "component",
  fields: [
    { name: "text", type: "text", required: true },
    { name: "by", type: "string" },
  ],
});

const posts = parseSchemaDefinition({
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true, min: 3, max: 80 },
    { name: "slug", type: "string", unique: true, pattern: "^[a-z0-9-]+$" },
    { name: "body", type: "richtext" },
    { name: "summary", type: "text", max: 200 },
    { name: "views", type: "integer", min: 0, default: 0 },
    { name: "rating", type: "number", min: 0, max: 5 },
    { name: "published", type: "boolean", default: false },
    { name: "publishedAt", type: "datetime" },
    { name: "contact", type: "email" },
    { name: "website", type: "url" },
    { name: "status", type: "enum", values: ["draft", "live"], default: "draft" },
    { name: "meta", type: "json" },
    { name: "author", type: "relation", target: "authors" },
    { name: "tags", type: "relation", target: "tags", many: true, max: 3 },
    { name: "seo", type: "component", component: "seo" },
    { name: "links", type: "component", component: "link", repeatable: true, max: 2 },
    { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
    { name: "cover", type: "file" },
  ],
});
const components: SchemaDefinition[] = [seo, link, hero, quote];

function validate(input: unknown, mode: RecordValidationMode = "create", schema: SchemaDefinition = posts) {
  return validateRecordInput({ schema, components, input, mode });
}

function issuesOf(input: unknown, mode: RecordValidationMode = "create", schema: SchemaDefinition = posts) {
  try {
    validate(input, mode, schema);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("validation_failed");
    expect((error as AppError).status).toBe(422);
    return (error as AppError).issues ?? [];
  }
  throw new Error("expected the input to be refused");
}

const paths = (input: unknown, mode: RecordValidationMode = "create", schema: SchemaDefinition = posts) => issuesOf(input, mode, schema).map((issue) => issue.path);

describe("validateRecordInput on create", () => {
  it("answers every field: given values normalized, defaults filled, the rest null or []", () => {
    expect(validate({ title: "Hello" })).toEqual({
      title: "Hello",
      slug: null,
      body: null,
      summary: null,
      views: 0,
      rating: null,
      published: false,
      publishedAt: null,
      contact: null,
      website: null,
      status: "draft",
      meta: null,
      author: null,
      tags: [],
      seo: null,
      links: [],
      blocks: [],
      cover: null,
    });
  });

  it("normalizes a full record", () => {
    const values = validate({
      title: "Hello world",
      slug: "hello-world",
      body: "<p>Hi</p>",
      summary: "",
      views: "12",
      rating: "4.5",
      published: "true",
      publishedAt: "2025-03-01T09:30:00+01:00",
      contact: "Editor@Example.com",
      website: "https://example.com/",
      status: "live",
      meta: { source: "import", weights: [1, 2] },
      author: "rec_author1",
      tags: ["rec_t1", "rec_t2", "rec_t1"],
      seo: { title: "Hello" },
      links: [{ label: "Home", url: "https://example.com" }],
      blocks: [
        { __component: "hero", heading: "Welcome", cta: { label: "Go", url: "https://example.com/go", target: "rec_post9" } },
        { __component: "quote", text: "To be or not to be" },
      ],
      cover: "fil_cover1",
    });
    expect(values).toEqual({
      title: "Hello world",
      slug: "hello-world",
      body: "<p>Hi</p>",
      summary: "",
      views: 12,
      rating: 4.5,
      published: true,
      publishedAt: "2025-03-01T08:30:00.000Z",
      contact: "editor@example.com",
      website: "https://example.com/",
      status: "live",
      meta: { source: "import", weights: [1, 2] },
      author: "rec_author1",
      tags: ["rec_t1", "rec_t2"],
      seo: { title: "Hello", noindex: false },
      links: [{ label: "Home", url: "https://example.com", target: null }],
      blocks: [
        { __component: "hero", heading: "Welcome", cta: { label: "Go", url: "https://example.com/go", target: "rec_post9" } },
        { __component: "quote", text: "To be or not to be", by: null },
      ],
      cover: "fil_cover1",
    });
  });

  it("requires required fields (absent, null or empty)", () => {
    expect(issuesOf({})).toEqual([{ path: "title", message: "is required" }]);
    expect(paths({ title: null })).toEqual(["title"]);
    expect(paths({ title: "" })).toEqual(["title"]);
  });

  it("keeps an explicit null over a default", () => {
    expect(validate({ title: "Hello", views: null, status: null })).toMatchObject({ views: null, status: null });
  });

  it("reads an empty form value as no value for non-text fields, and as empty text for text fields", () => {
    expect(validate({ title: "Hello", rating: "", publishedAt: "", contact: "", author: "", tags: "", summary: "", slug: "" })).toMatchObject({
      rating: null,
      publishedAt: null,
      contact: null,
      author: null,
      tags: [],
      summary: "",
      slug: "",
    });
  });

  it("does not copy the default object between records", () => {
    const withDefault = parseSchemaDefinition({ name: "a", kind: "collection", fields: [{ name: "settings", type: "json", default: { theme: "dark" } }] });
    const first = validateRecordInput({ schema: withDefault, components: [], input: {}, mode: "create" });
    (first.settings as { theme: string }).theme = "changed";
    const second = validateRecordInput({ schema: withDefault, components: [], input: {}, mode: "create" });
    expect(second.settings).toEqual({ theme: "dark" });
  });
});

describe("validateRecordInput on update", () => {
  it("answers only the given fields and applies no defaults", () => {
    expect(validate({ views: "3" }, "update")).toEqual({ views: 3 });
    expect(validate({}, "update")).toEqual({});
  });

  it("requires required fields only when given", () => {
    expect(validate({ summary: "x" }, "update")).toEqual({ summary: "x" });
    expect(issuesOf({ title: null }, "update")).toEqual([{ path: "title", message: "is required" }]);
    expect(paths({ title: "" }, "update")).toEqual(["title"]);
  });

  it("clears optional fields with null", () => {
    expect(validate({ rating: null, tags: null, seo: null }, "update")).toEqual({ rating: null, tags: [], seo: null });
  });

  it("checks a given component whole (it replaces the old value)", () => {
    expect(issuesOf({ seo: { noindex: true } }, "update")).toEqual([{ path: "seo.title", message: "is required" }]);
  });

  it("skips undefined members (absent, as JSON would have it)", () => {
    expect(validate({ title: undefined, views: 2 }, "update")).toEqual({ views: 2 });
  });
});

describe("validateRecordInput: types and rules", () => {
  it.each([
    [{ title: 42 }, "title", "must be a string"],
    [{ title: "ab" }, "title", "must be at least 3 characters"],
    [{ title: "x".repeat(81) }, "title", "must be at most 80 characters"],
    [{ slug: "Not A Slug" }, "slug", "must match the pattern ^[a-z0-9-]+$"],
    [{ summary: "x".repeat(201) }, "summary", "must be at most 200 characters"],
    [{ views: -1 }, "views", "must be at least 0"],
    [{ views: 1.5 }, "views", "must be an integer"],
    [{ views: "1.5" }, "views", "must be an integer"],
    [{ rating: "lots" }, "rating", "must be a number"],
    [{ rating: 6 }, "rating", "must be at most 5"],
    [{ published: "yes" }, "published", "must be true or false"],
    [{ published: 1 }, "published", "must be true or false"],
    [{ publishedAt: "2025-03-01T09:30:00" }, "publishedAt", expect.stringContaining("time zone")],
    [{ contact: "nope" }, "contact", "must be an email address"],
    [{ website: "javascript:alert(1)" }, "website", "must be an http or https URL"],
    [{ status: "archived" }, "status", 'must be one of "draft", "live"'],
    [{ author: 12 }, "author", expect.stringContaining("record id")],
    [{ author: ["rec_1"] }, "author", expect.stringContaining("record id")],
    [{ tags: { id: "rec_1" } }, "tags", "must be a list of record ids"],
    [{ tags: ["rec_1", 2] }, "tags.1", expect.stringContaining("record id")],
    [{ tags: ["a", "b", "c", "d"] }, "tags", "must have at most 3 related records"],
    [{ seo: "title" }, "seo", "must be an object"],
    [{ seo: [{ title: "x" }] }, "seo", "must be an object"],
    [{ links: { label: "x" } }, "links", "must be a list of objects"],
    [{ links: [1] }, "links.0", "must be an object"],
    [{ cover: { id: "fil_1" } }, "cover", expect.stringContaining("file id")],
  ])("refuses %j at %s", (input, path, message) => {
    expect(issuesOf({ title: "Valid title", ...input })).toEqual([{ path, message }]);
  });

  it("accepts a lone id for a many relation", () => {
    expect(validate({ title: "Hello", tags: "rec_t1" })).toMatchObject({ tags: ["rec_t1"] });
  });

  it("counts items of repeatable components and dynamic zones", () => {
    const three = [1, 2, 3].map((index) => ({ label: `L${index}`, url: "https://example.com" }));
    expect(issuesOf({ title: "Hello", links: three })).toEqual([{ path: "links", message: "must have at most 2 items" }]);
    const required = parseSchemaDefinition({
      name: "pages",
      kind: "collection",
      fields: [
        { name: "blocks", type: "dynamic_zone", components: ["quote"], required: true, min: 2 },
        { name: "tags", type: "relation", target: "tags", many: true, required: true },
      ],
    });
    expect(issuesOf({ blocks: [], tags: [] }, "create", required)).toEqual([
      { path: "blocks", message: "is required" },
      { path: "tags", message: "is required" },
    ]);
    expect(issuesOf({ blocks: [{ __component: "quote", text: "a" }], tags: ["rec_1"] }, "create", required)).toEqual([{ path: "blocks", message: "must have at least 2 items" }]);
  });

  it("caps lists at 1000 items", () => {
    const ids = Array.from({ length: 1001 }, (_, index) => `rec_${index}`);
    const unbounded = parseSchemaDefinition({ name: "a", kind: "collection", fields: [{ name: "many", type: "relation", target: "b", many: true }] });
    expect(issuesOf({ many: ids }, "create", unbounded)).toEqual([{ path: "many", message: "must have at most 1000 related records" }]);
  });

  it("accepts any JSON in json fields, but not operator-like keys", () => {
    expect(validate({ title: "Hello", meta: [1, { a: null }] })).toMatchObject({ meta: [1, { a: null }] });
    expect(validate({ title: "Hello", meta: "" })).toMatchObject({ meta: "" });
    expect(validate({ title: "Hello", meta: false })).toMatchObject({ meta: false });
    expect(issuesOf({ title: "Hello", meta: { filter: { $gt: 1 } } })).toEqual([{ path: "meta.filter.$gt", message: expect.stringContaining('"$"') }]);
    expect(issuesOf({ title: "Hello", meta: [{ "a.b": 1 }] })).toEqual([{ path: "meta.0.a.b", message: expect.stringContaining('"."') }]);
  });

  it("reports every problem at once", () => {
    expect(paths({ title: 1, views: "x", status: "nope", extra: 1 }).sort()).toEqual(["extra", "status", "title", "views"]);
  });

  it("names the first problem in the error message", () => {
    expect(() => validate({ title: "Hello", views: -5, rating: 9 })).toThrow("invalid posts record: views: must be at least 0 (and 1 more)");
  });
});

describe("validateRecordInput: components and dynamic zones, recursively", () => {
  it("reports nested paths", () => {
    const issues = issuesOf({
      title: "Hello",
      seo: { title: "x".repeat(61), extra: true },
      links: [
        { label: "ok", url: "https://example.com" },
        { label: "", url: "ftp://x" },
      ],
      blocks: [
        { __component: "quote", text: "fine" },
        { __component: "hero", cta: { label: "Go", url: "nope", target: 5 } },
      ],
    });
    expect(issues).toEqual([
      { path: "seo.extra", message: "is not a field of component seo" },
      { path: "seo.title", message: "must be at most 60 characters" },
      { path: "links.1.label", message: "is required" },
      { path: "links.1.url", message: "must be an http or https URL" },
      { path: "blocks.1.heading", message: "is required" },
      { path: "blocks.1.cta.url", message: "must be an http or https URL" },
      { path: "blocks.1.cta.target", message: expect.stringContaining("record id") },
    ]);
  });

  it("requires each dynamic-zone item to name an allowed component", () => {
    expect(issuesOf({ title: "Hello", blocks: [{ heading: "x" }] })).toEqual([{ path: "blocks.0.__component", message: 'must be one of "hero", "quote"' }]);
    expect(issuesOf({ title: "Hello", blocks: [{ __component: "seo", title: "x" }] })).toEqual([{ path: "blocks.0.__component", message: 'must be one of "hero", "quote"' }]);
    expect(issuesOf({ title: "Hello", blocks: ["hero"] })).toEqual([{ path: "blocks.0", message: expect.stringContaining("must be an object") }]);
    expect(issuesOf({ title: "Hello", blocks: { __component: "hero" } })).toEqual([{ path: "blocks", message: expect.stringContaining("must be a list") }]);
  });

  it("does not accept __component inside plain components", () => {
    expect(issuesOf({ title: "Hello", seo: { __component: "seo", title: "x" } })).toEqual([{ path: "seo.__component", message: "is not a field of component seo" }]);
  });

  it("reports a component missing from the project", () => {
    const orphan = parseSchemaDefinition({ name: "a", kind: "collection", fields: [{ name: "c", type: "component", component: "ghost" }] });
    expect(issuesOf({ c: {} }, "create", orphan)).toEqual([{ path: "c", message: 'component "ghost" is not defined in this project' }]);
  });
});

describe("checkRecordInput: every issue, and the valid part of the values", () => {
  it("collects the issues of every field and keeps what is valid, nested items in their positions, for the checks that need the database", () => {
    const { values, issues } = checkRecordInput({
      schema: posts,
      components,
      mode: "create",
      input: {
        views: -1,
        author: "rec_ok",
        tags: ["rec_t1", "rec_t1", "rec_t2"],
        links: ["not an object", { label: "", url: "https://example.com", target: "rec_link" }],
        blocks: [{ __component: "hero", heading: "Big", cta: { label: "Go", url: "nope", target: "rec_cta" } }],
      },
    });
    expect(issues.map((issue) => issue.path)).toEqual(["title", "views", "links.0", "links.1.label", "blocks.0.cta.url"]);
    expect(values).toMatchObject({
      author: "rec_ok",
      tags: ["rec_t1", "rec_t2"],
      links: [null, { url: "https://example.com", target: "rec_link" }],
      blocks: [{ __component: "hero", heading: "Big", cta: { label: "Go", target: "rec_cta" } }],
    });
    expect(values).not.toHaveProperty("title");
    expect(values).not.toHaveProperty("views");
  });

  it("still throws when there is no record to check", () => {
    expect(() => checkRecordInput({ schema: posts, components, mode: "create", input: [1] })).toThrow(/JSON object/);
  });
});

describe("validateRecordInput: keys", () => {
  it("rejects unknown fields", () => {
    expect(issuesOf({ title: "Hello", colour: "red" })).toEqual([{ path: "colour", message: "is not a field of schema posts" }]);
  });

  it("rejects server-set fields", () => {
    expect(issuesOf({ title: "Hello", id: "rec_mine", createdAt: "2020-01-01T00:00:00Z", expand: {} })).toEqual([
      { path: "id", message: '"id" is set by the server and cannot be written' },
      { path: "createdAt", message: '"createdAt" is set by the server and cannot be written' },
      { path: "expand", message: '"expand" is set by the server and cannot be written' },
    ]);
  });

  it.each([["$where"], ["$set"], ["a.b"], ["title.en"], ["__proto__"]])("rejects the key %s at the top level", (key) => {
    const input = JSON.parse(`{"title": "Hello", ${JSON.stringify(key)}: 1}`);
    expect(issuesOf(input)).toEqual([{ path: key, message: expect.stringContaining("keys must not") }]);
  });

  it("rejects such keys inside components and dynamic zones", () => {
    expect(issuesOf({ title: "Hello", seo: { title: "x", $inc: 1 } })).toEqual([{ path: "seo.$inc", message: expect.stringContaining("keys must not") }]);
    expect(issuesOf({ title: "Hello", blocks: [{ __component: "quote", text: "x", "by.name": "y" }] })).toEqual([
      { path: "blocks.0.by.name", message: expect.stringContaining("keys must not") },
    ]);
  });

  it("does not let __proto__ reach the prototype", () => {
    expect(() => validate(JSON.parse('{"title": "Hello", "__proto__": {"isAdmin": true}}'))).toThrow(AppError);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("refuses input that is not an object", () => {
    for (const input of [null, "title", 42, [{ title: "x" }], new Date()]) {
      expect(issuesOf(input)).toEqual([{ path: "", message: "must be a JSON object" }]);
    }
  });

  it("refuses records of a component", () => {
    expect(() => validateRecordInput({ schema: seo, components, input: { title: "x" }, mode: "create" })).toThrow(/component/);
  });
});

describe("validateRecordInput: auth schemas", () => {
  const members = parseSchemaDefinition({ name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] });

  it("validates the built-in email and emailVerified", () => {
    expect(validate({ email: " Ada@Example.com ", nickname: "ada" }, "create", members)).toEqual({ email: "ada@example.com", emailVerified: false, nickname: "ada" });
    expect(issuesOf({ nickname: "ada" }, "create", members)).toEqual([{ path: "email", message: "is required" }]);
    expect(issuesOf({ email: "ada" }, "create", members)).toEqual([{ path: "email", message: "must be an email address" }]);
    expect(validate({ emailVerified: "true" }, "update", members)).toEqual({ emailVerified: true });
  });

  it("refuses passwords and password hashes (they are the auth endpoints' business)", () => {
    expect(issuesOf({ email: "ada@example.com", password: "secret123", passwordHash: "x" }, "create", members)).toEqual([
      { path: "password", message: expect.stringContaining("auth endpoints") },
      { path: "passwordHash", message: expect.stringContaining("auth endpoints") },
    ]);
    expect(paths({ password: "x" }, "create")).toContain("password");
  });
});
