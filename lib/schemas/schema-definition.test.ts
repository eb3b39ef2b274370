import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { effectiveFields, FIELD_TYPES, parseSchemaDefinition, schemaDefinitionSchema, uniqueFieldNames, validateSchemaSet, type SchemaDefinition } from "./schema-definition";

function issuesOf(input: unknown): { path: string; message: string }[] {
  try {
    parseSchemaDefinition(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("validation_failed");
    return (error as AppError).issues ?? [];
  }
  return [];
}

function pathsOf(input: unknown): string[] {
  return issuesOf(input).map((issue) => issue.path);
}

const withField = (field: Record<string, unknown>, kind = "collection") => ({ name: "things", kind, fields: [field] });

describe("schema definition: the docs/DESIGN.md example", () => {
  it("accepts the documented shape unchanged", () => {
    const example = {
      name: "tickets",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "status", type: "enum", values: ["open", "closed"] },
        { name: "email", type: "email", unique: true },
        { name: "author", type: "relation", target: "authors", many: false },
        { name: "seo", type: "component", component: "seo", repeatable: false },
        { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
      ],
    };
    expect(parseSchemaDefinition(example)).toEqual(example);
  });

  it("accepts every field type with its options", () => {
    const definition = {
      name: "everything_1",
      kind: "collection",
      fields: [
        { name: "s", type: "string", min: 1, max: 20, pattern: "^[a-z]+$", default: "abc", required: true },
        { name: "t", type: "text", max: 500, unique: true },
        { name: "r", type: "richtext", default: "<p>hi</p>" },
        { name: "n", type: "number", min: -1.5, max: 10, default: 2.5 },
        { name: "i", type: "integer", min: 0, max: 10, default: 3, unique: false },
        { name: "b", type: "boolean", default: true },
        { name: "d", type: "datetime", min: "2020-01-01", max: "2030-01-01T00:00:00Z", default: "2024-05-01T10:00:00+02:00" },
        { name: "e", type: "email", max: 100 },
        { name: "u", type: "url", default: "https://example.com" },
        { name: "en", type: "enum", values: ["a", "b"], default: "b" },
        { name: "j", type: "json", default: { nested: [1, "two", null] } },
        { name: "rel", type: "relation", target: "authors", many: true, min: 1, max: 5 },
        { name: "c", type: "component", component: "seo", repeatable: true, min: 0, max: 3 },
        { name: "dz", type: "dynamic_zone", components: ["hero"], max: 10 },
        { name: "f", type: "file", maxBytes: 1048576, accept: ["image/*", "application/pdf", ".pdf"] },
      ],
    };
    expect(parseSchemaDefinition(definition).fields).toHaveLength(15);
    expect(new Set(definition.fields.map((field) => field.type))).toEqual(new Set(FIELD_TYPES));
  });

  it("accepts all three kinds", () => {
    for (const kind of ["collection", "auth", "component"]) {
      expect(parseSchemaDefinition({ name: "k", kind, fields: [] }).kind).toBe(kind);
    }
  });
});

describe("schema definition: names", () => {
  it.each(["tickets", "a", "blog_posts2", "x".repeat(63)])("accepts schema name %s", (name) => {
    expect(schemaDefinitionSchema.safeParse({ name, kind: "collection", fields: [] }).success).toBe(true);
  });

  it.each(["Tickets", "2things", "_private", "with-dash", "with space", "", "x".repeat(64), "tickets$"])("rejects schema name %j", (name) => {
    expect(pathsOf({ name, kind: "collection", fields: [] })).toEqual(["name"]);
  });

  it("rejects an unknown kind and unknown top-level keys", () => {
    expect(pathsOf({ name: "a", kind: "table", fields: [] })).toEqual(["kind"]);
    expect(issuesOf({ name: "a", kind: "collection", fields: [], extra: 1 })[0]?.message).toMatch(/extra/);
  });

  it.each(["title", "Title", "a1_b", "x".repeat(64)])("accepts field name %s", (name) => {
    expect(pathsOf(withField({ name, type: "string" }))).toEqual([]);
  });

  it.each(["1title", "_title", "ti-tle", "ti.tle", "$where", "", "x".repeat(65), "__proto__"])("rejects field name %j", (name) => {
    expect(pathsOf(withField({ name, type: "string" }))).toEqual(["fields.0.name"]);
  });

  it.each(["id", "createdAt", "updatedAt", "expand", "ID", "CreatedAt"])("reserves %s in every kind", (name) => {
    for (const kind of ["collection", "auth", "component"]) {
      const issues = issuesOf(withField({ name, type: "string" }, kind));
      expect(issues).toEqual([{ path: "fields.0.name", message: expect.stringContaining("reserved") }]);
    }
  });

  it.each(["email", "password", "passwordHash", "emailVerified", "Email"])("reserves %s in auth schemas only", (name) => {
    expect(issuesOf(withField({ name, type: "string" }, "auth"))).toEqual([{ path: "fields.0.name", message: expect.stringContaining("built into auth") }]);
    expect(pathsOf(withField({ name, type: "string" }, "collection"))).toEqual([]);
  });

  it("rejects repeated field names, case-insensitively", () => {
    const issues = issuesOf({
      name: "a",
      kind: "collection",
      fields: [
        { name: "title", type: "string" },
        { name: "body", type: "text" },
        { name: "Title", type: "string" },
      ],
    });
    expect(issues).toEqual([{ path: "fields.2.name", message: "repeats the field name of fields.0" }]);
  });

  it("caps the number of fields", () => {
    const fields = Array.from({ length: 201 }, (_, index) => ({ name: `f${index}`, type: "string" }));
    expect(pathsOf({ name: "a", kind: "collection", fields })).toEqual(["fields"]);
  });
});

describe("schema definition: field options", () => {
  it("rejects an unknown type with the path of the type", () => {
    expect(pathsOf(withField({ name: "x", type: "varchar" }))).toEqual(["fields.0.type"]);
  });

  it("rejects options that do not belong to the type", () => {
    expect(pathsOf(withField({ name: "x", type: "boolean", unique: true }))).toEqual(["fields.0"]);
    expect(pathsOf(withField({ name: "x", type: "number", pattern: "^a$" }))).toEqual(["fields.0"]);
    expect(pathsOf(withField({ name: "x", type: "json", unique: true }))).toEqual(["fields.0"]);
    expect(pathsOf(withField({ name: "x", type: "string", values: ["a"] }))).toEqual(["fields.0"]);
    expect(pathsOf(withField({ name: "x", type: "file", default: "fil_1" }))).toEqual(["fields.0"]);
  });

  it("checks option types", () => {
    expect(pathsOf(withField({ name: "x", type: "string", required: "yes" }))).toEqual(["fields.0.required"]);
    expect(pathsOf(withField({ name: "x", type: "string", max: 2.5 }))).toEqual(["fields.0.max"]);
    expect(pathsOf(withField({ name: "x", type: "string", max: 2001 }))).toEqual(["fields.0.max"]);
    expect(pathsOf(withField({ name: "x", type: "integer", min: 0.5 }))).toEqual(["fields.0.min"]);
    expect(pathsOf(withField({ name: "x", type: "string", min: -1 }))).toEqual(["fields.0.min"]);
  });

  it("requires min ≤ max", () => {
    expect(issuesOf(withField({ name: "x", type: "string", min: 5, max: 2 }))).toEqual([{ path: "fields.0.max", message: "must be at least min" }]);
    expect(pathsOf(withField({ name: "x", type: "number", min: 5, max: 5 }))).toEqual([]);
    expect(pathsOf(withField({ name: "x", type: "datetime", min: "2030-01-01", max: "2020-01-01" }))).toEqual(["fields.0.max"]);
  });

  it("requires datetime bounds to be ISO date-times", () => {
    expect(pathsOf(withField({ name: "x", type: "datetime", min: "yesterday" }))).toEqual(["fields.0.min"]);
    expect(pathsOf(withField({ name: "x", type: "datetime", max: "2024-01-01T10:00:00" }))).toEqual(["fields.0.max"]);
  });

  it("limits min/max of relations and components to lists", () => {
    expect(pathsOf(withField({ name: "x", type: "relation", target: "a", min: 1 }))).toEqual(["fields.0.min"]);
    expect(pathsOf(withField({ name: "x", type: "component", component: "a", max: 1 }))).toEqual(["fields.0.max"]);
    expect(pathsOf(withField({ name: "x", type: "relation", target: "a", many: true, min: 1 }))).toEqual([]);
  });

  it("checks enum values", () => {
    expect(pathsOf(withField({ name: "x", type: "enum", values: [] }))).toEqual(["fields.0.values"]);
    expect(pathsOf(withField({ name: "x", type: "enum" }))).toEqual(["fields.0.values"]);
    expect(pathsOf(withField({ name: "x", type: "enum", values: ["a", "a"] }))).toEqual(["fields.0.values"]);
    expect(pathsOf(withField({ name: "x", type: "enum", values: ["a,b"] }))).toEqual(["fields.0.values.0"]);
    expect(pathsOf(withField({ name: "x", type: "enum", values: [""] }))).toEqual(["fields.0.values.0"]);
  });

  it("checks relation, component and dynamic-zone references syntactically", () => {
    expect(pathsOf(withField({ name: "x", type: "relation" }))).toEqual(["fields.0.target"]);
    expect(pathsOf(withField({ name: "x", type: "relation", target: "Bad-Name" }))).toEqual(["fields.0.target"]);
    expect(pathsOf(withField({ name: "x", type: "component" }))).toEqual(["fields.0.component"]);
    expect(pathsOf(withField({ name: "x", type: "dynamic_zone", components: [] }))).toEqual(["fields.0.components"]);
    expect(pathsOf(withField({ name: "x", type: "dynamic_zone", components: ["a", "a"] }))).toEqual(["fields.0.components"]);
  });

  it("checks file options", () => {
    expect(pathsOf(withField({ name: "x", type: "file", maxBytes: 0 }))).toEqual(["fields.0.maxBytes"]);
    expect(pathsOf(withField({ name: "x", type: "file", accept: ["image"] }))).toEqual(["fields.0.accept.0"]);
    expect(pathsOf(withField({ name: "x", type: "file", accept: ["image/png", ".PDF", "text/*"] }))).toEqual([]);
  });

  it("rejects unique where it cannot work", () => {
    expect(issuesOf(withField({ name: "x", type: "string", unique: true }, "component"))[0]?.path).toBe("fields.0.unique");
    expect(issuesOf(withField({ name: "x", type: "relation", target: "a", many: true, unique: true }))[0]?.path).toBe("fields.0.unique");
    expect(issuesOf(withField({ name: "x", type: "string", unique: true, default: "same" }))[0]?.path).toBe("fields.0.default");
    expect(issuesOf(withField({ name: "x", type: "text", unique: true, max: 501 }))).toEqual([{ path: "fields.0.max", message: "unique fields hold at most 500 characters" }]);
  });

  it("checks defaults against the field's own rules, without coercion", () => {
    expect(pathsOf(withField({ name: "x", type: "string", max: 3, default: "toolong" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "string", pattern: "^a", default: "b" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "number", default: "5" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "number", max: 1, default: 5 }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "integer", default: 1.5 }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "boolean", default: "true" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "enum", values: ["a"], default: "b" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "email", default: "not-an-email" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "url", default: "javascript:alert(1)" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "datetime", default: "2024-02-30" }))).toEqual(["fields.0.default"]);
    expect(pathsOf(withField({ name: "x", type: "json", default: { $where: 1 } }))).toEqual(["fields.0.default"]);
  });

  it("reports several problems at once, each with its path", () => {
    const issues = issuesOf({
      name: "Bad",
      kind: "collection",
      fields: [
        { name: "ok", type: "string" },
        { name: "id", type: "string" },
        { name: "n", type: "number", min: 3, max: 1 },
      ],
    });
    expect(issues.map((issue) => issue.path).sort()).toEqual(["fields.1.name", "fields.2.max", "name"]);
  });
});

describe("schema definition: patterns", () => {
  it.each(["^[a-z0-9-]+$", "^\\d{3}-\\d{4}$", "^[A-Z]{2}\\d+$", "^(?:foo|bar)-\\d+$", "^\\p{Lu}", "colou?r", "^[a-z]+(?:-[a-z]+)?$"])("accepts %s", (pattern) => {
    expect(pathsOf(withField({ name: "x", type: "string", pattern }))).toEqual([]);
  });

  it.each([
    ["(a+)+$", "repeat a group"],
    ["^(a*)*b", "repeat a group"],
    ["^([a-z]+\\.)+com$", "repeat a group"],
    ["(a|aa)+", "alternatives"],
    ["((a|b)c)*", "alternatives"],
    ["(\\w{2,})*", "repeat a group"],
    ["(a)\\1", "backreferences"],
    ["(?<x>a)\\k<x>", "backreferences"],
    ["[", "not a valid regular expression"],
    ["a{2,1}", "not a valid regular expression"],
    ["\\-", "not a valid regular expression"],
    ["", "must not be empty"],
  ])("rejects %s", (pattern, message) => {
    const issues = issuesOf(withField({ name: "x", type: "string", pattern }));
    expect(issues).toEqual([{ path: "fields.0.pattern", message: expect.stringContaining(message) }]);
  });

  it("caps the pattern length", () => {
    expect(issuesOf(withField({ name: "x", type: "string", pattern: "a".repeat(201) }))[0]?.message).toBe("must be at most 200 characters");
    expect(pathsOf(withField({ name: "x", type: "string", pattern: "a".repeat(200) }))).toEqual([]);
  });
});

describe("effective fields and unique fields", () => {
  it("adds email and emailVerified to auth schemas", () => {
    const auth = parseSchemaDefinition({ name: "members", kind: "auth", fields: [{ name: "nickname", type: "string", unique: true }] });
    expect(effectiveFields(auth).map((field) => field.name)).toEqual(["email", "emailVerified", "nickname"]);
    expect(uniqueFieldNames(auth)).toEqual(["email", "nickname"]);
  });

  it("lists unique fields of collections, none of components", () => {
    const collection = parseSchemaDefinition({
      name: "posts",
      kind: "collection",
      fields: [
        { name: "slug", type: "string", unique: true },
        { name: "title", type: "string", unique: false },
        { name: "author", type: "relation", target: "authors", unique: true },
      ],
    });
    expect(uniqueFieldNames(collection)).toEqual(["slug", "author"]);
    expect(uniqueFieldNames({ kind: "component", fields: [] })).toEqual([]);
  });
});

describe("validateSchemaSet", () => {
  const set = (...definitions: unknown[]) => definitions.map((definition) => parseSchemaDefinition(definition));
  const authors = { name: "authors", kind: "collection", fields: [{ name: "name", type: "string" }] };
  const members = { name: "members", kind: "auth", fields: [] };
  const seo = { name: "seo", kind: "component", fields: [{ name: "title", type: "string" }] };
  const hero = {
    name: "hero",
    kind: "component",
    fields: [
      { name: "heading", type: "string" },
      { name: "meta", type: "component", component: "seo" },
    ],
  };

  it("accepts a consistent project", () => {
    const posts = {
      name: "posts",
      kind: "collection",
      fields: [
        { name: "author", type: "relation", target: "authors" },
        { name: "owner", type: "relation", target: "members" },
        { name: "parent", type: "relation", target: "posts" },
        { name: "seo", type: "component", component: "seo" },
        { name: "blocks", type: "dynamic_zone", components: ["hero", "seo"] },
      ],
    };
    expect(validateSchemaSet(set(authors, members, seo, hero, posts))).toEqual([]);
  });

  it("reports missing relation targets and components as targets", () => {
    const posts = {
      name: "posts",
      kind: "collection",
      fields: [
        { name: "title", type: "string" },
        { name: "author", type: "relation", target: "writers" },
        { name: "meta", type: "relation", target: "seo" },
      ],
    };
    expect(validateSchemaSet(set(seo, posts))).toEqual([
      { schema: "posts", path: "fields.1.target", message: 'there is no schema named "writers"' },
      { schema: "posts", path: "fields.2.target", message: expect.stringContaining("is a component") },
    ]);
  });

  it("reports missing components and non-component references with paths", () => {
    const posts = {
      name: "posts",
      kind: "collection",
      fields: [
        { name: "seo", type: "component", component: "seo_meta" },
        { name: "author", type: "component", component: "authors" },
        { name: "blocks", type: "dynamic_zone", components: ["hero", "missing", "authors"] },
      ],
    };
    expect(validateSchemaSet(set(authors, seo, hero, posts))).toEqual([
      { schema: "posts", path: "fields.0.component", message: 'there is no component named "seo_meta"' },
      { schema: "posts", path: "fields.1.component", message: '"authors" is a collection schema, not a component' },
      { schema: "posts", path: "fields.2.components.1", message: 'there is no component named "missing"' },
      { schema: "posts", path: "fields.2.components.2", message: '"authors" is a collection schema, not a component' },
    ]);
  });

  it("reports a component that nests itself", () => {
    const loop = { name: "loop", kind: "component", fields: [{ name: "self", type: "component", component: "loop", repeatable: true }] };
    expect(validateSchemaSet(set(loop))).toEqual([{ schema: "loop", path: "fields.0.component", message: "components must not nest themselves: loop → loop" }]);
  });

  it("reports nesting cycles through several components and dynamic zones, on every member", () => {
    const a = { name: "a", kind: "component", fields: [{ name: "b", type: "component", component: "b" }] };
    const b = {
      name: "b",
      kind: "component",
      fields: [
        { name: "x", type: "string" },
        { name: "zone", type: "dynamic_zone", components: ["seo", "c"] },
      ],
    };
    const c = { name: "c", kind: "component", fields: [{ name: "back", type: "component", component: "a" }] };
    const issues = validateSchemaSet(set(a, b, c, seo));
    expect(issues.map((issue) => `${issue.schema}:${issue.path}`).sort()).toEqual(["a:fields.0.component", "b:fields.1.components.1", "c:fields.0.component"]);
    expect(issues[0]?.message).toMatch(/a → b → c → a/);
  });

  it("does not mistake shared components (a diamond) for a cycle", () => {
    const left = { name: "left", kind: "component", fields: [{ name: "s", type: "component", component: "seo" }] };
    const right = { name: "right", kind: "component", fields: [{ name: "s", type: "component", component: "seo" }] };
    const top = {
      name: "top",
      kind: "component",
      fields: [
        { name: "l", type: "component", component: "left" },
        { name: "r", type: "component", component: "right" },
      ],
    };
    expect(validateSchemaSet(set(seo, left, right, top))).toEqual([]);
  });

  it("reports repeated schema names", () => {
    expect(validateSchemaSet(set(authors, authors) as SchemaDefinition[])).toEqual([{ schema: "authors", path: "name", message: expect.stringContaining("already named") }]);
  });
});
