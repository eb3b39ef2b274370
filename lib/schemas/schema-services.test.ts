import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { closePlatformDb, getPlatformDb } from "@/lib/platform-db/client";
import { projects, workspaces } from "@/lib/platform-db/schema";
import type { RecordStore } from "@/lib/records/record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { getRecordOrThrow } from "@/lib/records-service/get-record-or-throw";
import { recordStoreBackends, type OpenedRecordStore } from "@/lib/records-service/testing/record-store-backends";
import { createSchema } from "./create-schema";
import { deleteSchema } from "./delete-schema";
import { getSchemaOrThrow } from "./get-schema-or-throw";
import { listSchemas } from "./list-schemas";
import { updateSchema } from "./update-schema";

async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected an AppError");
}

async function createProjectRow(): Promise<string> {
  const db = await getPlatformDb();
  const workspaceId = newId("workspace");
  const projectId = newId("project");
  await db.insert(workspaces).values({ id: workspaceId, name: "Schema tests" });
  await db.insert(projects).values({ id: projectId, workspaceId, name: "Schema tests", slug: projectId.replace(/_/g, "-") });
  return projectId;
}

afterAll(closePlatformDb);

for (const backend of recordStoreBackends()) {
  describe(`schema services with the ${backend.name} record store`, () => {
    let opened: OpenedRecordStore;
    let store: RecordStore;
    let projectId: string;

    beforeAll(async () => {
      projectId = await createProjectRow();
      opened = await backend.open(projectId);
      store = opened.store;
    });

    afterAll(async () => {
      await opened?.cleanup();
    });

    const schemasNow = async () => listSchemas({ projectId });
    const insertRecord = async (schemaName: string, input: Record<string, unknown>) => {
      const schemas = await schemasNow();
      const schema = schemas.find((candidate) => candidate.name === schemaName);
      if (!schema) throw new Error(`no schema ${schemaName}`);
      return createRecord({ store, projectId, schemas, schema, input, origin: "flow" });
    };

    describe("createSchema, listSchemas, getSchemaOrThrow", () => {
      it("saves a definition and answers it with id, version and timestamps", async () => {
        const saved = await createSchema({ projectId, store, definition: { name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] } });
        expect(saved).toEqual({
          id: expect.stringMatching(/^sch_/),
          name: "authors",
          kind: "collection",
          fields: [{ name: "name", type: "string", required: true }],
          version: 1,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(await getSchemaOrThrow({ projectId, name: "authors" })).toEqual(saved);
      });

      it("lists by name and by kind", async () => {
        await createSchema({ projectId, store, definition: { name: "seo", kind: "component", fields: [{ name: "title", type: "string" }] } });
        expect((await listSchemas({ projectId })).map((schema) => schema.name)).toEqual(["authors", "seo"]);
        expect((await listSchemas({ projectId, kind: "component" })).map((schema) => schema.name)).toEqual(["seo"]);
        expect(await listSchemas({ projectId: "prj_other" })).toEqual([]);
      });

      it("answers 404 for an unknown name", async () => {
        expect((await appErrorOf(getSchemaOrThrow({ projectId, name: "ghosts" }))).status).toBe(404);
      });

      it("refuses a taken name with 409", async () => {
        const error = await appErrorOf(createSchema({ projectId, store, definition: { name: "authors", kind: "collection", fields: [] } }));
        expect(error).toMatchObject({ status: 409, code: "conflict" });
      });

      it("refuses invalid definitions with 422 and paths", async () => {
        const error = await appErrorOf(createSchema({ projectId, store, definition: { name: "bad", kind: "collection", fields: [{ name: "s", type: "enum", values: [] }] } }));
        expect(error.status).toBe(422);
        expect(error.issues).toEqual([{ path: "fields.0.values", message: "must list at least one value" }]);
      });

      it("refuses definitions that do not fit the project (relation targets, components)", async () => {
        const error = await appErrorOf(
          createSchema({
            projectId,
            store,
            definition: {
              name: "posts_bad",
              kind: "collection",
              fields: [
                { name: "author", type: "relation", target: "writers" },
                { name: "meta", type: "component", component: "authors" },
                { name: "seo", type: "relation", target: "seo" },
              ],
            },
          }),
        );
        expect(error.status).toBe(422);
        expect(error.issues?.map((issue) => issue.path)).toEqual(["fields.0.target", "fields.1.component", "fields.2.target"]);
        expect((await schemasNow()).some((schema) => schema.name === "posts_bad")).toBe(false);
      });

      it("refuses a pattern that is too slow to match", async () => {
        const error = await appErrorOf(
          createSchema({
            projectId,
            store,
            definition: {
              name: "codes",
              kind: "collection",
              fields: [
                { name: "ok", type: "string" },
                { name: "code", type: "string", pattern: "^\\d*\\d*\\d*\\d*x" },
              ],
            },
          }),
        );
        expect(error.status).toBe(422);
        expect(error.issues).toEqual([{ path: "fields.1.pattern", message: expect.stringContaining("too long to match") }]);
      });

      it("creates unique indexes: duplicates are refused afterwards (409 naming the field)", async () => {
        await createSchema({
          projectId,
          store,
          definition: {
            name: "products",
            kind: "collection",
            fields: [
              { name: "sku", type: "string", unique: true },
              { name: "title", type: "string" },
            ],
          },
        });
        await insertRecord("products", { sku: "A-1" });
        const error = await appErrorOf(insertRecord("products", { sku: "A-1" }));
        expect(error).toMatchObject({ status: 409, field: "sku" });
      });

      it("gives auth schemas a unique email", async () => {
        await createSchema({ projectId, store, definition: { name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] } });
        await insertRecord("members", { email: "ada@example.com" });
        const error = await appErrorOf(insertRecord("members", { email: "ADA@example.com" }));
        expect(error).toMatchObject({ status: 409, field: "email" });
      });

      it("refuses a unique field over existing duplicates, naming a duplicate value, and saves nothing", async () => {
        // Data left in the customer database from before (the collection exists, no schema does).
        await store.insert("imported", { code: "dup-1" });
        await store.insert("imported", { code: "dup-1" });
        const error = await appErrorOf(
          createSchema({ projectId, store, definition: { name: "imported", kind: "collection", fields: [{ name: "code", type: "string", unique: true }] } }),
        );
        expect(error).toMatchObject({ status: 409, code: "unique_violation", field: "code" });
        expect(error.message).toContain("dup-1");
        expect(error.issues).toEqual([{ path: "fields.0.unique", message: error.message }]);
        expect((await appErrorOf(getSchemaOrThrow({ projectId, name: "imported" }))).status).toBe(404);
      });
    });

    describe("updateSchema", () => {
      beforeAll(async () => {
        await createSchema({
          projectId,
          store,
          definition: {
            name: "articles",
            kind: "collection",
            fields: [
              { name: "title", type: "string", required: true },
              { name: "code", type: "string" },
              { name: "legacy", type: "string" },
              { name: "rank", type: "integer", unique: true },
            ],
          },
        });
        await insertRecord("articles", { title: "One", code: "same", legacy: "kept value", rank: 1 });
        await insertRecord("articles", { title: "Two", code: "same", rank: 2 });
      });

      const current = () => getSchemaOrThrow({ projectId, name: "articles" });
      const withFields = (fields: unknown[]) => ({ name: "articles", kind: "collection", fields });

      it("refuses to make a field unique over duplicates (409 naming field and value), changing nothing", async () => {
        const before = await current();
        const error = await appErrorOf(
          updateSchema({
            projectId,
            store,
            name: "articles",
            definition: withFields([...before.fields.slice(0, 1), { name: "code", type: "string", unique: true }, ...before.fields.slice(2)]),
          }),
        );
        expect(error).toMatchObject({ status: 409, code: "unique_violation", field: "code" });
        expect(error.message).toContain('"same"');
        expect(error.issues).toEqual([{ path: "fields.1.unique", message: error.message }]);
        expect(await current()).toEqual(before);
      });

      it("describes a change without saving it (dryRun)", async () => {
        const before = await current();
        const result = await updateSchema({
          projectId,
          store,
          name: "articles",
          dryRun: true,
          definition: withFields([
            { name: "title", type: "string", required: true },
            { name: "code", type: "text" },
            { name: "rank", type: "integer" },
            { name: "summary", type: "text" },
          ]),
        });
        expect(result.effects).toEqual({
          addedFields: ["summary"],
          removedFields: ["legacy"],
          changedTypes: [{ field: "code", from: "string", to: "text" }],
          uniqueIndexesCreated: [],
          uniqueIndexesDropped: ["rank"],
          fieldIndexesCreated: [],
          fieldIndexesDropped: [],
          requiresConfirmation: true,
          notes: expect.arrayContaining([expect.stringContaining('"legacy" is removed')]),
        });
        expect(result.schema.version).toBe(before.version);
        expect(await current()).toEqual(before);
        // The rank index is still there.
        expect((await appErrorOf(insertRecord("articles", { title: "Dup rank", rank: 1 }))).status).toBe(409);
      });

      it("removes a field without deleting its data, and drops indexes no longer needed", async () => {
        const before = await current();
        const result = await updateSchema({
          projectId,
          store,
          name: "articles",
          expectedVersion: before.version,
          definition: withFields([
            { name: "title", type: "string", required: true },
            { name: "code", type: "string" },
            { name: "rank", type: "integer" },
          ]),
        });
        expect(result.schema.version).toBe(before.version + 1);
        expect(result.effects).toMatchObject({ removedFields: ["legacy"], uniqueIndexesDropped: ["rank"], requiresConfirmation: true });

        const [raw] = await store.find("articles", { where: [{ field: "title", op: "eq", value: "One" }] });
        expect(raw?.legacy).toBe("kept value");
        const schemas = await schemasNow();
        const articles = schemas.find((schema) => schema.name === "articles");
        if (!articles || !raw) throw new Error("missing");
        expect(await getRecordOrThrow({ store, schemas, schema: articles, id: raw.id })).not.toHaveProperty("legacy");
        // rank is no longer unique
        await insertRecord("articles", { title: "Same rank", rank: 1 });
      });

      it("makes a field unique when the data allows it", async () => {
        const before = await current();
        const result = await updateSchema({
          projectId,
          store,
          name: "articles",
          definition: withFields([
            { name: "title", type: "string", required: true, unique: true },
            { name: "code", type: "string" },
            { name: "rank", type: "integer" },
          ]),
        });
        expect(result.effects).toMatchObject({ uniqueIndexesCreated: ["title"], requiresConfirmation: false });
        expect(result.schema.version).toBe(before.version + 1);
        expect((await appErrorOf(insertRecord("articles", { title: "One" }))).field).toBe("title");
      });

      it("builds an index for each field that becomes indexed and drops it when the field stops being so", async () => {
        const calls: string[] = [];
        // The real store, with a log of the index calls the service makes.
        const logged: RecordStore = {
          ...store,
          kind: store.kind,
          metrics: store.metrics,
          ensureFieldIndex: (collection, field, opts) => {
            calls.push(`ensure ${collection}.${field}`);
            return store.ensureFieldIndex(collection, field, opts);
          },
          dropFieldIndex: (collection, field, opts) => {
            calls.push(`drop ${collection}.${field}`);
            return store.dropFieldIndex(collection, field, opts);
          },
        };
        await createSchema({
          projectId,
          store: logged,
          definition: {
            name: "events",
            kind: "collection",
            fields: [
              { name: "at", type: "datetime", indexed: true },
              { name: "kind", type: "string" },
            ],
          },
        });
        expect(calls).toEqual(["ensure events.at"]);
        await createRecord({
          store,
          projectId,
          schemas: await schemasNow(),
          schema: await getSchemaOrThrow({ projectId, name: "events" }),
          input: { at: "2025-01-02T03:04:05Z", kind: "a" },
          origin: "flow",
        });
        calls.length = 0;
        const withFieldsOf = (fields: unknown[]) => ({ name: "events", kind: "collection", fields });
        const result = await updateSchema({
          projectId,
          store: logged,
          name: "events",
          definition: withFieldsOf([
            { name: "at", type: "datetime" },
            { name: "kind", type: "string", indexed: true },
            { name: "done", type: "boolean", indexed: true },
          ]),
        });
        expect(result.effects).toMatchObject({ fieldIndexesCreated: ["kind", "done"], fieldIndexesDropped: ["at"], requiresConfirmation: false });
        expect(result.effects.notes).toEqual(expect.arrayContaining([expect.stringContaining('"kind" is indexed'), expect.stringContaining('"at" is no longer indexed')]));
        expect(calls).toEqual(["ensure events.kind", "ensure events.done", "drop events.at"]);
        expect((await store.find("events", { where: [{ field: "kind", op: "eq", value: "a" }] })).map((record) => record.at)).toEqual(["2025-01-02T03:04:05.000Z"]);
        const refused = await appErrorOf(updateSchema({ projectId, store, name: "events", definition: withFieldsOf([{ name: "tags", type: "json", indexed: true }]) }));
        expect(refused.status).toBe(422);
      });

      it("refuses renames, kind changes and stale versions", async () => {
        const before = await current();
        const renamed = await appErrorOf(updateSchema({ projectId, store, name: "articles", definition: { ...withFields(before.fields), name: "posts" } }));
        expect(renamed).toMatchObject({ status: 422, issues: [{ path: "name", message: 'must stay "articles"' }] });
        const rekinded = await appErrorOf(updateSchema({ projectId, store, name: "articles", definition: { ...withFields(before.fields), kind: "auth" } }));
        expect(rekinded).toMatchObject({ status: 422, issues: [{ path: "kind", message: 'must stay "collection"' }] });
        const stale = await appErrorOf(updateSchema({ projectId, store, name: "articles", expectedVersion: before.version - 1, definition: withFields(before.fields) }));
        expect(stale.status).toBe(409);
        expect((await appErrorOf(updateSchema({ projectId, store, name: "nothing", definition: withFields([]) }))).status).toBe(404);
      });

      it("refuses a change that makes components nest themselves", async () => {
        await createSchema({ projectId, store, definition: { name: "card", kind: "component", fields: [{ name: "meta", type: "component", component: "seo" }] } });
        const error = await appErrorOf(
          updateSchema({ projectId, store, name: "seo", definition: { name: "seo", kind: "component", fields: [{ name: "cards", type: "dynamic_zone", components: ["card"] }] } }),
        );
        expect(error.status).toBe(422);
        expect(error.issues).toEqual([
          { path: "fields.0.components.0", message: expect.stringMatching(/^components must not nest themselves: (seo → card → seo|card → seo → card)$/) },
        ]);
      });
    });

    describe("deleteSchema", () => {
      it("refuses to delete a schema with records unless confirmed, saying how many go", async () => {
        await createSchema({ projectId, store, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "text" }] } });
        await insertRecord("notes", { text: "a" });
        await insertRecord("notes", { text: "b" });
        const refused = await appErrorOf(deleteSchema({ projectId, store, name: "notes" }));
        expect(refused).toMatchObject({ status: 409, code: "conflict" });
        expect(refused.message).toBe('deleting schema "notes" would delete its 2 records; confirm to delete them with it');
        expect(await store.count("notes")).toBe(2);

        expect(await deleteSchema({ projectId, store, name: "notes", confirm: true })).toEqual({ deletedRecords: 2 });
        expect(await store.count("notes")).toBe(0);
        expect((await appErrorOf(getSchemaOrThrow({ projectId, name: "notes" }))).status).toBe(404);
      });

      it("deletes an empty schema without confirmation", async () => {
        await createSchema({ projectId, store, definition: { name: "drafts", kind: "collection", fields: [] } });
        expect(await deleteSchema({ projectId, store, name: "drafts" })).toEqual({ deletedRecords: 0 });
      });

      it("refuses to delete a schema other schemas use, naming them", async () => {
        await createSchema({
          projectId,
          store,
          definition: {
            name: "posts",
            kind: "collection",
            fields: [
              { name: "author", type: "relation", target: "authors" },
              { name: "seo", type: "component", component: "seo" },
            ],
          },
        });
        const relation = await appErrorOf(deleteSchema({ projectId, store, name: "authors", confirm: true }));
        expect(relation).toMatchObject({ status: 409, issues: [{ path: "posts.fields.0.target", message: expect.stringContaining('relation "author"') }] });
        const component = await appErrorOf(deleteSchema({ projectId, store, name: "seo" }));
        expect(component.status).toBe(409);
        expect(component.issues?.map((issue) => issue.path).sort()).toEqual(["card.fields.0.component", "posts.fields.1.component"]);
      });

      it("deletes an unused component", async () => {
        await createSchema({ projectId, store, definition: { name: "unused_part", kind: "component", fields: [] } });
        expect(await deleteSchema({ projectId, store, name: "unused_part" })).toEqual({ deletedRecords: 0 });
        expect((await appErrorOf(deleteSchema({ projectId, store, name: "unused_part" }))).status).toBe(404);
      });
    });
  });
}
