import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import type { RecordStore } from "@/lib/records/record-store";
import { parseSchemaDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { createRecord } from "./create-record";
import { deleteRecord } from "./delete-record";
import { getRecordOrThrow } from "./get-record-or-throw";
import { listRecords } from "./list-records";
import { LIST_QUERY_LIMITS, parseListQuery } from "./parse-list-query";
import { onRecordChange, type RecordChangeEvent } from "./record-events";
import { recordStoreBackends, type OpenedRecordStore } from "./testing/record-store-backends";
import { updateFirstRecord } from "./update-first-record";
import { updateRecord } from "./update-record";

const authors = parseSchemaDefinition({
  name: "authors",
  kind: "collection",
  fields: [
    { name: "name", type: "string", required: true },
    { name: "handle", type: "string", unique: true },
  ],
});
const members = parseSchemaDefinition({ name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] });
const tags = parseSchemaDefinition({ name: "tags", kind: "collection", fields: [{ name: "label", type: "string", required: true }] });
const link = parseSchemaDefinition({
  name: "link",
  kind: "component",
  fields: [
    { name: "label", type: "string", required: true },
    { name: "target", type: "relation", target: "posts" },
  ],
});
const quote = parseSchemaDefinition({
  name: "quote",
  kind: "component",
  fields: [
    { name: "text", type: "text", required: true },
    { name: "source", type: "relation", target: "authors" },
  ],
});
const posts = parseSchemaDefinition({
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "slug", type: "string", unique: true },
    { name: "views", type: "integer", default: 0 },
    { name: "status", type: "enum", values: ["draft", "live"], default: "draft" },
    { name: "author", type: "relation", target: "authors" },
    { name: "owner", type: "relation", target: "members" },
    { name: "tags", type: "relation", target: "tags", many: true },
    { name: "links", type: "component", component: "link", repeatable: true },
    { name: "blocks", type: "dynamic_zone", components: ["quote"] },
  ],
});
const schemas: SchemaDefinition[] = [authors, members, tags, link, quote, posts];

function captureEvents(): { events: RecordChangeEvent[]; stop: () => void } {
  const events: RecordChangeEvent[] = [];
  const stop = onRecordChange((event) => {
    events.push(event);
  });
  return { events, stop };
}

async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected an AppError");
}

for (const backend of recordStoreBackends()) {
  describe(`record services on ${backend.name}`, () => {
    let opened: OpenedRecordStore;
    let store: RecordStore;
    let projectId: string;
    const stops: (() => void)[] = [];

    const common = () => ({ store, projectId, schemas, origin: "api" as const });
    const create = (schema: SchemaDefinition, input: unknown, origin: "api" | "flow" = "api") => createRecord({ ...common(), schema, input, origin });

    beforeAll(async () => {
      opened = await backend.open();
      store = opened.store;
      projectId = opened.projectId;
      for (const schema of [authors, members, posts]) {
        for (const field of schema.kind === "auth" ? ["email"] : []) await store.ensureUniqueIndex(schema.name, field);
      }
      await store.ensureUniqueIndex("authors", "handle");
      await store.ensureUniqueIndex("posts", "slug");
    });

    afterEach(() => {
      while (stops.length) stops.pop()?.();
    });

    afterAll(async () => {
      await opened?.cleanup();
    });

    describe("createRecord", () => {
      it("stores a valid record and answers it as the API shows it (201 body)", async () => {
        const record = await create(posts, { title: "First", views: "3" });
        expect(record).toEqual({
          id: expect.stringMatching(/^rec_/),
          title: "First",
          slug: null,
          views: 3,
          status: "draft",
          author: null,
          owner: null,
          tags: [],
          links: [],
          blocks: [],
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(Object.keys(record)[0]).toBe("id");
        const [stored] = await store.findByIds("posts", [record.id]);
        expect(stored).toMatchObject({ title: "First", views: 3 });
      });

      it("refuses invalid input with 422 and stores nothing", async () => {
        const before = await store.count("posts");
        const error = await appErrorOf(create(posts, { views: "many", $where: "1" }));
        expect(error.status).toBe(422);
        expect(error.issues?.map((issue) => issue.path).sort()).toEqual(["$where", "title", "views"]);
        expect(await store.count("posts")).toBe(before);
      });

      it("checks that related records exist, naming the field and the missing id", async () => {
        const ada = await create(authors, { name: "Ada" });
        const tag = await create(tags, { label: "news" });
        const ok = await create(posts, { title: "Related", author: ada.id, tags: [tag.id] });
        expect(ok).toMatchObject({ author: ada.id, tags: [tag.id] });

        const missing = await appErrorOf(create(posts, { title: "Broken", author: "rec_missing1", tags: [tag.id, "rec_missing2"] }));
        expect(missing.status).toBe(422);
        expect(missing.code).toBe("validation_failed");
        expect(missing.field).toBe("author");
        expect(missing.issues).toEqual([
          { path: "author", message: 'no authors record has the id "rec_missing1"' },
          { path: "tags.1", message: 'no tags record has the id "rec_missing2"' },
        ]);
        expect(missing.message).toContain("rec_missing1");
      });

      it("answers every problem of a write at once: invalid values, missing related records at any depth, each with its path", async () => {
        const tag = await create(tags, { label: "kept" });
        const before = await store.count("posts");
        const error = await appErrorOf(
          create(posts, {
            views: "many",
            status: "archived",
            author: "rec_missing1",
            tags: [tag.id, "rec_missing2"],
            links: [{ label: "", target: "rec_missing3" }],
            blocks: [{ __component: "quote", text: "Said", source: "rec_missing4" }, { __component: "poster" }],
          }),
        );
        expect(error).toMatchObject({ status: 422, code: "validation_failed" });
        expect(error.issues).toEqual([
          { path: "title", message: "is required" },
          { path: "views", message: "must be an integer" },
          { path: "status", message: 'must be one of "draft", "live"' },
          { path: "links.0.label", message: "is required" },
          { path: "blocks.1.__component", message: 'must be one of "quote"' },
          { path: "author", message: 'no authors record has the id "rec_missing1"' },
          { path: "tags.1", message: 'no tags record has the id "rec_missing2"' },
          { path: "links.0.target", message: 'no posts record has the id "rec_missing3"' },
          { path: "blocks.0.source", message: 'no authors record has the id "rec_missing4"' },
        ]);
        expect(error.message).toBe("invalid posts record: title: is required (and 8 more)");
        expect(await store.count("posts")).toBe(before);

        const post = await create(posts, { title: "Valid" });
        const update = await appErrorOf(updateRecord({ ...common(), schema: posts, id: post.id, input: { views: 1.5, author: "rec_missing5" } }));
        expect(update.issues).toEqual([
          { path: "views", message: "must be an integer" },
          { path: "author", message: 'no authors record has the id "rec_missing5"' },
        ]);
      });

      it("checks relations inside components and dynamic zones", async () => {
        const error = await appErrorOf(
          create(posts, {
            title: "Nested",
            links: [{ label: "self", target: "rec_nothere" }],
            blocks: [{ __component: "quote", text: "hi", source: "rec_ghost" }],
          }),
        );
        expect(error.issues).toEqual([
          { path: "links.0.target", message: 'no posts record has the id "rec_nothere"' },
          { path: "blocks.0.source", message: 'no authors record has the id "rec_ghost"' },
        ]);
      });

      it("uses one query per related schema, not per id", async () => {
        const tagIds = [];
        for (const label of ["a", "b", "c", "d"]) tagIds.push((await create(tags, { label })).id);
        const before = store.metrics.queries;
        await create(posts, { title: "Many tags", tags: tagIds });
        // one findByIds for tags + the insert
        expect(store.metrics.queries - before).toBe(2);
      });

      it("answers 409 naming the field when a unique value is taken", async () => {
        await create(posts, { title: "One", slug: "taken" });
        const error = await appErrorOf(create(posts, { title: "Two", slug: "taken" }));
        expect(error.status).toBe(409);
        expect(error.code).toBe("unique_violation");
        expect(error.field).toBe("slug");
        expect(error.message).toContain('slug "taken"');
        expect(error.issues).toEqual([{ path: "slug", message: expect.stringContaining("unique") }]);
      });

      it("keeps uniqueness under concurrent writes", async () => {
        const results = await Promise.allSettled(Array.from({ length: 8 }, (_, index) => create(authors, { name: `Writer ${index}`, handle: "same-handle" })));
        const fulfilled = results.filter((result) => result.status === "fulfilled");
        const rejected = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(7);
        for (const result of rejected) expect(result.reason).toMatchObject({ code: "unique_violation", field: "handle", status: 409 });
        expect(await store.count("authors", { where: [{ field: "handle", op: "eq", value: "same-handle" }] })).toBe(1);
      });

      it("stores hidden values that are never answered", async () => {
        const member = await createRecord({ ...common(), schema: members, input: { email: "Ada@Example.com", nickname: "ada" }, hiddenValues: { passwordHash: "scrypt$secret" } });
        expect(member).toEqual({ id: member.id, email: "ada@example.com", emailVerified: false, nickname: "ada", createdAt: member.createdAt, updatedAt: member.updatedAt });
        const [stored] = await store.findByIds("members", [member.id]);
        expect(stored?.passwordHash).toBe("scrypt$secret");
        expect(JSON.stringify(await getRecordOrThrow({ ...common(), schema: members, id: member.id }))).not.toContain("secret");
      });

      it("refuses hidden values that collide with fields (a programming error)", async () => {
        const error = await appErrorOf(createRecord({ ...common(), schema: members, input: { email: "x@example.com" }, hiddenValues: { nickname: "x" } }));
        expect(error.code).toBe("internal");
      });

      it("refuses records of components", async () => {
        const error = await appErrorOf(create(link, { label: "x" }));
        expect(error.status).toBe(404);
      });
    });

    describe("record-change events", () => {
      it("emits create, update and delete for API writes, with the previous version on update", async () => {
        const { events, stop } = captureEvents();
        stops.push(stop);
        const created = await create(posts, { title: "Evented" });
        const updated = await updateRecord({ ...common(), schema: posts, id: created.id, input: { title: "Evented again" } });
        const deleted = await deleteRecord({ ...common(), schema: posts, id: created.id });
        expect(events).toEqual([
          { type: "create", projectId, schema: "posts", record: created },
          { type: "update", projectId, schema: "posts", record: updated, previous: created },
          { type: "delete", projectId, schema: "posts", record: deleted },
        ]);
        expect(deleted).toEqual(updated);
      });

      it("never emits for writes made by flows", async () => {
        const { events, stop } = captureEvents();
        stops.push(stop);
        const created = await create(posts, { title: "From a flow" }, "flow");
        await updateRecord({ ...common(), origin: "flow", schema: posts, id: created.id, input: { views: 9 } });
        await updateFirstRecord({ ...common(), origin: "flow", schema: posts, where: [{ field: "id", op: "eq", value: created.id }], input: { views: 10 } });
        await deleteRecord({ ...common(), origin: "flow", schema: posts, id: created.id });
        expect(events).toEqual([]);
      });

      it("keeps the write when a handler throws or rejects, and still calls the others", async () => {
        const { events, stop } = captureEvents();
        stops.push(
          onRecordChange(() => {
            throw new Error("handler bug");
          }),
        );
        stops.push(onRecordChange(async () => Promise.reject(new Error("async handler bug"))));
        stops.push(stop);
        const created = await create(posts, { title: "Resilient" });
        expect(created.title).toBe("Resilient");
        expect(events).toHaveLength(1);
        expect(await store.count("posts", { where: [{ field: "id", op: "eq", value: created.id }] })).toBe(1);
      });

      it("does not emit for writes that fail", async () => {
        const { events, stop } = captureEvents();
        stops.push(stop);
        await appErrorOf(create(posts, { title: 1 }));
        await appErrorOf(updateRecord({ ...common(), schema: posts, id: "rec_nothing", input: { title: "x" } }));
        expect(events).toEqual([]);
      });

      it("hides hidden fields in events too", async () => {
        const { events, stop } = captureEvents();
        stops.push(stop);
        await createRecord({ ...common(), schema: members, input: { email: "evented@example.com" }, hiddenValues: { passwordHash: "hash" } });
        expect(JSON.stringify(events)).not.toContain("passwordHash");
      });
    });

    describe("updateRecord and updateFirstRecord", () => {
      it("changes only the given fields and answers the updated record", async () => {
        const created = await create(posts, { title: "Before", views: 1 });
        const updated = await updateRecord({ ...common(), schema: posts, id: created.id, input: { views: "2" } });
        expect(updated).toMatchObject({ id: created.id, title: "Before", views: 2, createdAt: created.createdAt });
        expect(updated.updatedAt >= created.updatedAt).toBe(true);
      });

      it("refuses clearing a required field and unknown fields (422)", async () => {
        const created = await create(posts, { title: "Keep" });
        const error = await appErrorOf(updateRecord({ ...common(), schema: posts, id: created.id, input: { title: null, colour: "red" } }));
        expect(error.status).toBe(422);
        expect(error.issues?.map((issue) => issue.path)).toEqual(["colour", "title"]);
      });

      it("answers 404 for a missing id and 409 for a taken unique value", async () => {
        expect((await appErrorOf(updateRecord({ ...common(), schema: posts, id: "rec_absent", input: { views: 1 } }))).status).toBe(404);
        await create(posts, { title: "Holder", slug: "holder" });
        const other = await create(posts, { title: "Other" });
        const error = await appErrorOf(updateRecord({ ...common(), schema: posts, id: other.id, input: { slug: "holder" } }));
        expect(error).toMatchObject({ status: 409, field: "slug" });
      });

      it("checks relations on update", async () => {
        const created = await create(posts, { title: "Rel" });
        const error = await appErrorOf(updateRecord({ ...common(), schema: posts, id: created.id, input: { author: "rec_nobody" } }));
        expect(error).toMatchObject({ status: 422, field: "author" });
      });

      it("updates the first match of a filter, or answers matched: false", async () => {
        const none = await updateFirstRecord({ ...common(), schema: posts, where: [{ field: "title", op: "eq", value: "no such title" }], input: { views: 1 } });
        expect(none).toEqual({ matched: false, record: null, previous: null });
        const first = await create(posts, { title: "Twin", views: 1 });
        await create(posts, { title: "Twin", views: 1 });
        const result = await updateFirstRecord({ ...common(), schema: posts, where: [{ field: "title", op: "eq", value: "Twin" }], input: { views: 5 } });
        expect(result.matched).toBe(true);
        expect(result.record).toMatchObject({ id: first.id, views: 5 });
        expect(result.previous).toMatchObject({ id: first.id, views: 1 });
      });
    });

    describe("getRecordOrThrow and deleteRecord", () => {
      it("answers 404 for missing records", async () => {
        expect((await appErrorOf(getRecordOrThrow({ ...common(), schema: posts, id: "rec_none" }))).status).toBe(404);
        expect((await appErrorOf(deleteRecord({ ...common(), schema: posts, id: "rec_none" }))).status).toBe(404);
      });

      it("deletes once", async () => {
        const created = await create(posts, { title: "Doomed" });
        await deleteRecord({ ...common(), schema: posts, id: created.id });
        expect((await appErrorOf(getRecordOrThrow({ ...common(), schema: posts, id: created.id }))).status).toBe(404);
        expect((await appErrorOf(deleteRecord({ ...common(), schema: posts, id: created.id }))).status).toBe(404);
      });

      it("expands relations of one record", async () => {
        const author = await create(authors, { name: "Grace" });
        const post = await create(posts, { title: "Expanded", author: author.id });
        const record = await getRecordOrThrow({ ...common(), schema: posts, id: post.id, expand: ["author", "tags"] });
        expect(record.expand).toEqual({ author, tags: [] });
      });

      it("hides values of fields removed from the schema, keeping them stored", async () => {
        const withLegacy = parseSchemaDefinition({ ...tags, fields: [...tags.fields, { name: "legacy", type: "string" }] });
        const created = await createRecord({ ...common(), schemas: [withLegacy], schema: withLegacy, input: { label: "l", legacy: "old value" } });
        expect(created.legacy).toBe("old value");
        const read = await getRecordOrThrow({ ...common(), schema: tags, id: created.id });
        expect(read).not.toHaveProperty("legacy");
        const [stored] = await store.findByIds("tags", [created.id]);
        expect(stored?.legacy).toBe("old value");
        // Writing with the current schema refuses the removed field (it is unknown now).
        expect((await appErrorOf(updateRecord({ ...common(), schema: tags, id: created.id, input: { legacy: "x" } }))).status).toBe(422);
      });
    });

    describe("listRecords", () => {
      const listOf = (schema: SchemaDefinition, query: string) => listRecords({ ...common(), schema, query: parseListQuery({ schema, params: new URLSearchParams(query) }) });

      let books: SchemaDefinition;
      beforeAll(async () => {
        books = parseSchemaDefinition({
          name: "books",
          kind: "collection",
          fields: [
            { name: "title", type: "string", required: true },
            { name: "blurb", type: "text" },
            { name: "pages", type: "integer" },
            { name: "genre", type: "enum", values: ["fiction", "science", "history"] },
            { name: "author", type: "relation", target: "authors" },
            { name: "owner", type: "relation", target: "members" },
            { name: "tags", type: "relation", target: "tags", many: true },
          ],
        });
        schemas.push(books);
        const writers = [];
        for (let index = 0; index < 6; index++) writers.push(await create(authors, { name: `Author ${index}` }));
        const labels = [];
        for (let index = 0; index < 4; index++) labels.push(await create(tags, { label: `tag-${index}` }));
        const owner = await createRecord({ ...common(), schema: members, input: { email: "owner@example.com" }, hiddenValues: { passwordHash: "never-shown" } });
        const genres = ["fiction", "science", "history"];
        for (let index = 0; index < 60; index++) {
          await create(books, {
            title: `Book ${String(index).padStart(2, "0")}`,
            blurb: index % 10 === 0 ? "A Dragon appears" : "quiet",
            pages: 100 + index,
            genre: genres[index % 3],
            author: writers[index % 6]?.id,
            owner: owner.id,
            tags: [labels[index % 4]?.id, labels[(index + 1) % 4]?.id],
          });
        }
      });

      it("answers {data, meta} with the total, newest first by default", async () => {
        const page = await listOf(books, "perPage=5");
        expect(page.meta).toEqual({ page: 1, perPage: 5, total: 60 });
        expect(page.data.map((record) => record.title)).toEqual(["Book 59", "Book 58", "Book 57", "Book 56", "Book 55"]);
      });

      it("pages without overlap and skips the count with total=false", async () => {
        const second = await listOf(books, "perPage=25&page=2&sort=title");
        expect(second.meta).toEqual({ page: 2, perPage: 25, total: 60 });
        expect(second.data[0]?.title).toBe("Book 25");
        const last = await listOf(books, "perPage=25&page=3&sort=title&total=false");
        expect(last.meta).toEqual({ page: 3, perPage: 25, total: null });
        expect(last.data).toHaveLength(10);
      });

      it("filters with operators, coerced values and in-lists", async () => {
        const result = await listOf(books, "filter[pages][gte]=150&filter[pages][lt]=156&filter[genre][in]=fiction,science&sort=pages");
        expect(result.data.map((record) => record.pages)).toEqual([151, 152, 154, 155]);
        expect(result.meta.total).toBe(4);
        expect((await listOf(books, "filter[genre]=history&total=true")).meta.total).toBe(20);
      });

      it("searches text fields case-insensitively", async () => {
        const result = await listOf(books, "search=dragon&sort=title");
        expect(result.data.map((record) => record.title)).toEqual(["Book 00", "Book 10", "Book 20", "Book 30", "Book 40", "Book 50"]);
      });

      it("sorts by several fields", async () => {
        const result = await listOf(books, "sort=genre,-pages&perPage=3");
        expect(result.data.map((record) => [record.genre, record.pages])).toEqual([
          ["fiction", 157],
          ["fiction", 154],
          ["fiction", 151],
        ]);
      });

      it("expands relations under expand.<field>, hiding the related schema's secrets", async () => {
        const result = await listOf(books, "expand=author,tags,owner&perPage=2&sort=title");
        const [first] = result.data;
        expect(first?.expand).toEqual({
          author: expect.objectContaining({ id: first?.author, name: "Author 0" }),
          tags: [expect.objectContaining({ label: "tag-0" }), expect.objectContaining({ label: "tag-1" })],
          owner: expect.objectContaining({ email: "owner@example.com" }),
        });
        expect(JSON.stringify(result)).not.toContain("never-shown");
        expect(JSON.stringify(result)).not.toContain("passwordHash");
      });

      it("expands with the same number of store queries for 5 and for 50 records", async () => {
        const queriesFor = async (perPage: number) => {
          // An earlier test's search builds its index in the background, with queries of its own.
          await settleAfterResponseWork();
          const before = store.metrics.queries;
          const result = await listOf(books, `expand=author,tags,owner&perPage=${perPage}&total=false`);
          expect(result.data).toHaveLength(perPage);
          expect(result.data.every((record) => (record.expand as { author: unknown }).author !== null)).toBe(true);
          return store.metrics.queries - before;
        };
        const small = await queriesFor(5);
        const large = await queriesFor(50);
        expect(large).toBe(small);
        // the page query plus one findByIds per expanded field
        expect(small).toBe(4);
      });

      it("reads a deleted related record as null (single) or leaves it out (many)", async () => {
        const gone = await create(authors, { name: "Gone" });
        const tag = await create(tags, { label: "gone-tag" });
        const keep = await create(tags, { label: "kept-tag" });
        const book = await create(books, { title: "Orphan", author: gone.id, tags: [tag.id, keep.id] });
        await deleteRecord({ ...common(), schema: authors, id: gone.id });
        await deleteRecord({ ...common(), schema: tags, id: tag.id });
        const record = await getRecordOrThrow({ ...common(), schema: books, id: book.id, expand: ["author", "tags"] });
        expect(record.author).toBe(gone.id);
        expect(record.expand).toEqual({ author: null, tags: [keep] });
      });

      it("counts at most 1,000 matches: past that the total says so instead of counting on", async () => {
        const many = parseSchemaDefinition({ name: "many_things", kind: "collection", fields: [{ name: "n", type: "integer" }] });
        const documents = Array.from({ length: LIST_QUERY_LIMITS.maxTotal + 1 }, (_, n) => ({ n }));
        for (let start = 0; start < documents.length; start += 1000) await store.insertMany("many_things", documents.slice(start, start + 1000));
        expect((await listOf(many, "perPage=1")).meta).toEqual({ page: 1, perPage: 1, total: LIST_QUERY_LIMITS.maxTotal, totalCapped: true });
        expect((await listOf(many, `perPage=1&filter[n][lt]=${LIST_QUERY_LIMITS.maxTotal}`)).meta).toEqual({ page: 1, perPage: 1, total: LIST_QUERY_LIMITS.maxTotal });
      });

      it("answers an empty page for a collection with no records yet", async () => {
        const empty = parseSchemaDefinition({ name: "empty_things", kind: "collection", fields: [{ name: "x", type: "string" }] });
        expect(await listRecords({ ...common(), schema: empty, query: parseListQuery({ schema: empty, params: new URLSearchParams() }) })).toEqual({
          data: [],
          meta: { page: 1, perPage: 20, total: 0 },
        });
      });
    });
  });
}
