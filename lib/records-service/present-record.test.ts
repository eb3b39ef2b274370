import { describe, expect, it } from "vitest";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { collectRelationReferences } from "./collect-relation-references";
import { presentRecord } from "./present-record";

const seo = parseSchemaDefinition({
  name: "seo",
  kind: "component",
  fields: [
    { name: "title", type: "string" },
    { name: "image", type: "relation", target: "media" },
  ],
});
const quote = parseSchemaDefinition({
  name: "quote",
  kind: "component",
  fields: [
    { name: "text", type: "text" },
    { name: "by", type: "relation", target: "authors" },
  ],
});
const pages = parseSchemaDefinition({
  name: "pages",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "author", type: "relation", target: "authors" },
    { name: "tags", type: "relation", target: "tags", many: true },
    { name: "seo", type: "component", component: "seo" },
    { name: "gallery", type: "component", component: "seo", repeatable: true },
    { name: "blocks", type: "dynamic_zone", components: ["quote"] },
  ],
});
const components = [seo, quote];
const stamps = { createdAt: "2025-01-01T00:00:00.000Z", updatedAt: "2025-01-02T00:00:00.000Z" };

describe("presentRecord", () => {
  it("answers id, the current fields in declared order, then the timestamps", () => {
    const record = presentRecord({ schema: pages, components, record: { ...stamps, title: "Home", id: "rec_1" } });
    expect(Object.keys(record)).toEqual(["id", "title", "author", "tags", "seo", "gallery", "blocks", "createdAt", "updatedAt"]);
    expect(record).toMatchObject({ author: null, tags: [], seo: null, gallery: [], blocks: [] });
  });

  it("leaves out removed fields, secrets and unknown keys, at every depth", () => {
    const record = presentRecord({
      schema: pages,
      components,
      record: {
        id: "rec_1",
        ...stamps,
        title: "Home",
        removedField: "old",
        passwordHash: "x",
        _internal: 1,
        seo: { title: "T", oldKey: 1 },
        gallery: [{ title: "G", secret: 1 }, "not an object"],
        blocks: [{ __component: "quote", text: "Q", stale: 1 }, { __component: "removed_component", text: "R" }, { text: "no name" }],
      },
    });
    expect(record).toEqual({
      id: "rec_1",
      title: "Home",
      author: null,
      tags: [],
      seo: { title: "T", image: null },
      gallery: [{ title: "G", image: null }],
      blocks: [{ __component: "quote", text: "Q", by: null }],
      ...stamps,
    });
  });

  it("answers auth schemas' email and emailVerified but never password hashes", () => {
    const members = parseSchemaDefinition({ name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] });
    const record = presentRecord({
      schema: members,
      components: [],
      record: { id: "rec_2", ...stamps, email: "a@example.com", emailVerified: true, passwordHash: "h", password: "p", resetTokenHash: "t" },
    });
    expect(record).toEqual({ id: "rec_2", email: "a@example.com", emailVerified: true, nickname: null, ...stamps });
  });

  it("answers stored values as they are (no conversion after a type change)", () => {
    const record = presentRecord({ schema: pages, components, record: { id: "rec_3", ...stamps, title: 42 } });
    expect(record.title).toBe(42);
  });
});

describe("collectRelationReferences", () => {
  it("finds ids at every depth with their paths", () => {
    const references = collectRelationReferences({
      schema: pages,
      components,
      values: {
        title: "x",
        author: "rec_a",
        tags: ["rec_t1", "rec_t2"],
        seo: { title: "s", image: "rec_m1" },
        gallery: [
          { title: "g", image: null },
          { title: "h", image: "rec_m2" },
        ],
        blocks: [{ __component: "quote", text: "q", by: "rec_a2" }],
      },
    });
    expect(references).toEqual([
      { target: "authors", id: "rec_a", path: "author" },
      { target: "tags", id: "rec_t1", path: "tags.0" },
      { target: "tags", id: "rec_t2", path: "tags.1" },
      { target: "media", id: "rec_m1", path: "seo.image" },
      { target: "media", id: "rec_m2", path: "gallery.1.image" },
      { target: "authors", id: "rec_a2", path: "blocks.0.by" },
    ]);
  });

  it("finds nothing in values without relations (partial updates)", () => {
    expect(collectRelationReferences({ schema: pages, components, values: { title: "only" } })).toEqual([]);
  });
});
