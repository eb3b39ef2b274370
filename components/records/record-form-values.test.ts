import { describe, expect, it } from "vitest";
import { validateRecordInput } from "@/lib/records-service/validate-record";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import {
  componentLookup,
  controlId,
  controlPathOf,
  dateTimeInputToIso,
  draftToRecord,
  isoToDateTimeInput,
  issuesByControl,
  jsonTextToDraft,
  newGroupDraft,
  newRecordDraft,
  recordToDraft,
  type DraftValues,
} from "./record-form-values";

const hero = parseSchemaDefinition({
  name: "hero",
  kind: "component",
  fields: [
    { name: "heading", type: "string", required: true },
    { name: "link", type: "relation", target: "pages" },
  ],
});
const quote = parseSchemaDefinition({ name: "quote", kind: "component", fields: [{ name: "text", type: "text" }] });
const seo = parseSchemaDefinition({ name: "seo", kind: "component", fields: [{ name: "metaTitle", type: "string", default: "Untitled" }] });
const pages = parseSchemaDefinition({
  name: "pages",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "body", type: "richtext" },
    { name: "views", type: "integer" },
    { name: "rating", type: "number" },
    { name: "published", type: "boolean", default: false },
    { name: "publishAt", type: "datetime" },
    { name: "contact", type: "email" },
    { name: "status", type: "enum", values: ["draft", "live"], default: "draft" },
    { name: "meta", type: "json" },
    { name: "parent", type: "relation", target: "pages" },
    { name: "related", type: "relation", target: "pages", many: true },
    { name: "cover", type: "file" },
    { name: "seo", type: "component", component: "seo" },
    { name: "links", type: "component", component: "hero", repeatable: true },
    { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
  ],
});
const schemas = [hero, quote, seo, pages];
const lookup = componentLookup(schemas);

const stored = {
  title: "Home",
  body: "<p>Hi</p>",
  views: 12,
  rating: 4.5,
  published: true,
  publishAt: "2025-01-31T12:30:00.000Z",
  contact: "ops@example.com",
  status: "live",
  meta: { tags: ["a"], depth: { n: 1 } },
  parent: "rec_parent",
  related: ["rec_a", "rec_b"],
  cover: "fil_cover",
  seo: { metaTitle: "Welcome" },
  links: [{ heading: "One", link: null }],
  blocks: [
    { __component: "quote", text: "Said" },
    { __component: "hero", heading: "Big", link: "rec_a" },
  ],
};

describe("record form values", () => {
  it("reads a record into drafts and writes the same record back, as the records service accepts it unchanged", () => {
    const drafts = recordToDraft(pages, stored, lookup);
    expect(drafts.views).toEqual({ kind: "text", text: "12" });
    expect(drafts.publishAt).toEqual({ kind: "text", text: "2025-01-31T12:30:00" });
    expect(drafts.related).toEqual({ kind: "relation", ids: ["rec_a", "rec_b"] });
    expect(drafts.blocks).toMatchObject({
      kind: "list",
      items: [
        { key: "i0", component: "quote" },
        { key: "i1", component: "hero" },
      ],
    });

    const { record, issues } = draftToRecord(pages, drafts, lookup);
    expect(issues).toEqual([]);
    expect(record).toEqual({ ...stored, publishAt: "2025-01-31T12:30:00Z" });
    expect(validateRecordInput({ schema: pages, components: schemas, input: record, mode: "create" })).toEqual(stored);
  });

  it("starts a new record from the fields' defaults, empty otherwise, and leaves empty inputs as null", () => {
    const drafts = newRecordDraft(pages, lookup);
    expect(drafts.published).toEqual({ kind: "boolean", checked: false });
    expect(drafts.status).toEqual({ kind: "text", text: "draft" });
    const { record } = draftToRecord(pages, drafts, lookup);
    expect(record).toEqual({
      title: "",
      body: "",
      views: null,
      rating: null,
      published: false,
      publishAt: null,
      contact: null,
      status: "draft",
      meta: null,
      parent: null,
      related: [],
      cover: null,
      seo: null,
      links: [],
      blocks: [],
    });
    expect(newGroupDraft("n1", "seo", lookup)).toEqual({ key: "n1", component: "seo", values: { metaTitle: { kind: "text", text: "Untitled" } } });
  });

  it("sends numbers as numbers, and text that is no number as typed, for the service to name", () => {
    const drafts: DraftValues = { ...recordToDraft(pages, stored, lookup), views: { kind: "text", text: " 7 " }, rating: { kind: "text", text: "lots" } };
    expect(draftToRecord(pages, drafts, lookup).record).toMatchObject({ views: 7, rating: "lots" });
  });

  it("reports JSON that does not parse at its field, and leaves file fields with a pending upload out", () => {
    const drafts: DraftValues = { ...recordToDraft(pages, stored, lookup), meta: { kind: "text", text: "{oops" } };
    const { record, issues } = draftToRecord(pages, drafts, lookup, new Set(["cover"]));
    expect(issues).toEqual([{ path: "meta", message: expect.stringMatching(/^is not valid JSON/) }]);
    expect(record).not.toHaveProperty("meta");
    expect(record).not.toHaveProperty("cover");
  });

  it("leaves chosen nested files out and names their value paths as the entries stand, after a reorder or a removal", () => {
    const card = parseSchemaDefinition({
      name: "card",
      kind: "component",
      fields: [
        { name: "caption", type: "string" },
        { name: "image", type: "file" },
      ],
    });
    const albums = parseSchemaDefinition({
      name: "albums",
      kind: "collection",
      fields: [
        { name: "lead", type: "component", component: "card" },
        { name: "cards", type: "dynamic_zone", components: ["card"] },
      ],
    });
    const albumLookup = componentLookup([card, albums]);
    const drafts = recordToDraft(
      albums,
      {
        lead: { caption: "l", image: "fil_lead" },
        cards: [
          { __component: "card", caption: "a", image: "fil_a" },
          { __component: "card", caption: "b" },
        ],
      },
      albumLookup,
    );
    const chosen = new Set(["lead.image", "cards.i1.image", "cards.i9.image"]);
    const first = draftToRecord(albums, drafts, albumLookup, chosen);
    expect(first.skipped).toEqual({ "lead.image": "lead.image", "cards.i1.image": "cards.1.image" });
    expect(first.record).toEqual({
      lead: { caption: "l" },
      cards: [
        { __component: "card", caption: "a", image: "fil_a" },
        { __component: "card", caption: "b" },
      ],
    });

    const list = drafts.cards as Extract<DraftValues[string], { kind: "list" }>;
    const reordered = { ...drafts, cards: { kind: "list" as const, items: [list.items[1]!, list.items[0]!] } };
    expect(draftToRecord(albums, reordered, albumLookup, chosen).skipped).toEqual({ "lead.image": "lead.image", "cards.i1.image": "cards.0.image" });
    const removed = { ...drafts, cards: { kind: "list" as const, items: [list.items[0]!] } };
    expect(draftToRecord(albums, removed, albumLookup, chosen).skipped).toEqual({ "lead.image": "lead.image" });
  });

  it("converts date-times between the datetime-local input (UTC) and ISO", () => {
    expect(isoToDateTimeInput("2025-03-01T08:05:09.120Z")).toBe("2025-03-01T08:05:09.120");
    expect(isoToDateTimeInput(null)).toBe("");
    expect(dateTimeInputToIso("2025-03-01T08:05")).toBe("2025-03-01T08:05Z");
    expect(dateTimeInputToIso("")).toBeNull();
    expect(dateTimeInputToIso("tomorrow")).toBe("tomorrow");
  });

  it("reads the JSON box back into drafts, refusing keys the form has no field for rather than dropping them", () => {
    const read = jsonTextToDraft(pages, JSON.stringify({ title: "From JSON", related: ["rec_x"] }), lookup);
    expect(read.ok && read.drafts.title).toEqual({ kind: "text", text: "From JSON" });
    expect(read.ok && read.drafts.related).toEqual({ kind: "relation", ids: ["rec_x"] });
    expect(jsonTextToDraft(pages, '{"title": "x", "colour": "red"}', lookup)).toEqual({ ok: false, message: expect.stringContaining('"colour"') });
    expect(jsonTextToDraft(pages, "[1]", lookup).ok).toBe(false);
    expect(jsonTextToDraft(pages, "{", lookup).ok).toBe(false);
  });

  it("puts each issue of the service at its control, list items named by key so that an issue follows its item when moved", () => {
    const drafts = recordToDraft(pages, stored, lookup);
    expect(controlPathOf(pages, drafts, "blocks.1.heading", lookup)).toEqual({ path: "blocks.i1.heading", rest: "" });
    expect(controlPathOf(pages, drafts, "blocks.1.__component", lookup)).toEqual({ path: "blocks.i1", rest: "" });
    expect(controlPathOf(pages, drafts, "seo.metaTitle", lookup)).toEqual({ path: "seo.metaTitle", rest: "" });
    expect(controlPathOf(pages, drafts, "related.1", lookup)).toEqual({ path: "related", rest: "1" });
    expect(controlPathOf(pages, drafts, "meta.depth.n", lookup)).toEqual({ path: "meta", rest: "depth.n" });
    expect(controlPathOf(pages, drafts, "links", lookup)).toEqual({ path: "links", rest: "" });
    expect(controlPathOf(pages, drafts, "colour", lookup)).toEqual({ path: "", rest: "colour" });

    const byControl = issuesByControl(
      pages,
      drafts,
      [
        { path: "title", message: "is required" },
        { path: "related.1", message: 'no pages record has the id "rec_b"' },
        { path: "related.0", message: 'no pages record has the id "rec_a"' },
        { path: "meta.depth", message: "must not nest deeper" },
        { path: "blocks.1.link", message: 'no pages record has the id "rec_a"' },
      ],
      lookup,
    );
    expect(Object.fromEntries(byControl)).toEqual({
      title: ["Is required"],
      related: ['No pages record has the id "rec_b"', 'No pages record has the id "rec_a"'],
      meta: ["Depth: must not nest deeper"],
      "blocks.i1.link": ['No pages record has the id "rec_a"'],
    });
    expect(controlId("record", "blocks.i1.link")).toBe("record-blocks-i1-link");
    expect(controlId("record", "")).toBe("record-form");
  });
});
