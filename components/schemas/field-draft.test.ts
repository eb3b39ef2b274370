import { describe, expect, it } from "vitest";
import { FIELD_TYPES, parseSchemaDefinition, type FieldDefinition } from "@/lib/schemas/schema-definition";
import { fieldOptions, newFieldDraft, toFieldDefinition, toFieldDraft } from "./field-draft";

/** One field of every type with every option its type has. */
const FULL_FIELDS: FieldDefinition[] = [
  { name: "code", type: "string", required: true, min: 2, max: 20, pattern: "^[A-Z]+$", default: "AB" },
  { name: "slug", type: "string", unique: true, max: 120 },
  { name: "body", type: "text", min: 1, max: 5000, default: "…" },
  { name: "rich", type: "richtext", max: 10000 },
  { name: "price", type: "number", min: 0, max: 9999.5, default: 1.5 },
  { name: "qty", type: "integer", unique: true, min: 0 },
  { name: "active", type: "boolean", default: false },
  { name: "due", type: "datetime", min: "2025-01-01T00:00:00Z", max: "2030-01-01T00:00:00Z", default: "2026-01-01T00:00:00Z" },
  { name: "email", type: "email", unique: true, max: 200 },
  { name: "site", type: "url", default: "https://example.com" },
  { name: "status", type: "enum", values: ["open", "closed"], default: "open" },
  { name: "meta", type: "json", default: { tags: ["a"], n: 1 } },
  { name: "author", type: "relation", target: "authors", unique: true },
  { name: "tags", type: "relation", target: "tags", many: true, min: 1, max: 5 },
  { name: "seo", type: "component", component: "seo" },
  { name: "cards", type: "component", component: "card", repeatable: true, max: 10 },
  { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"], min: 1 },
  { name: "cover", type: "file", accept: ["image/*", ".pdf"], maxBytes: 2 * 1024 * 1024 },
];

describe("field drafts", () => {
  it("cover every field type", () => {
    expect(new Set(FULL_FIELDS.map((field) => field.type))).toEqual(new Set(FIELD_TYPES));
  });

  it.each(FULL_FIELDS.map((field) => [field.name, field] as const))("round-trip %s with all its options", (_name, field) => {
    const built = toFieldDefinition(toFieldDraft(field), "collection");
    expect(built).toEqual({ ok: true, field });
  });

  it("write a definition the schema service accepts", () => {
    const fields = FULL_FIELDS.map((field) => {
      const built = toFieldDefinition(toFieldDraft(field), "collection");
      if (!built.ok) throw new Error("not built");
      return built.field;
    });
    expect(parseSchemaDefinition({ name: "articles", kind: "collection", fields }).fields).toEqual(FULL_FIELDS);
  });

  it("send only the options of the field's current type", () => {
    const draft = { ...toFieldDraft({ name: "code", type: "string", pattern: "^a$", max: 5 }), type: "integer" as const };
    expect(toFieldDefinition(draft, "collection")).toEqual({ ok: true, field: { name: "code", type: "integer", max: 5 } });
  });

  it("report numbers and JSON that do not parse at the option's path, before asking the server", () => {
    const draft = { ...newFieldDraft("integer"), name: "qty", min: "ten", defaultText: "1,5" };
    expect(toFieldDefinition(draft, "collection")).toEqual({
      ok: false,
      issues: [
        { path: "min", message: "must be a number" },
        { path: "default", message: "must be a number" },
      ],
    });
    const json = { ...newFieldDraft("json"), name: "meta", defaultText: "{nope" };
    expect(toFieldDefinition(json, "collection")).toEqual({ ok: false, issues: [{ path: "default", message: "must be valid JSON" }] });
  });

  it("offer unique only where the service allows it", () => {
    expect(fieldOptions({ type: "string", many: false, repeatable: false }, "collection").unique).toBe(true);
    expect(fieldOptions({ type: "string", many: false, repeatable: false }, "component").unique).toBe(false);
    expect(fieldOptions({ type: "relation", many: true, repeatable: false }, "collection").unique).toBe(false);
    expect(fieldOptions({ type: "boolean", many: false, repeatable: false }, "collection").unique).toBe(false);
    expect(fieldOptions({ type: "component", many: false, repeatable: false }, "collection").bounds).toBeNull();
    expect(fieldOptions({ type: "component", many: false, repeatable: true }, "collection").bounds).toBe("count");
  });

  it("give every draft its own key", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newFieldDraft().key));
    expect(keys.size).toBe(50);
  });
});
