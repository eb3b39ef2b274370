import { describe, expect } from "vitest";
import { routeTest } from "@/test/support/route-test";

type Json = Record<string, unknown>;
type Body = Json & { data?: Json[]; issues?: { path: string; message: string }[] };

/** The client with a key that may read and write schemas and records. */
const it = routeTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) =>
  ownerApi.with({ credentials: { key: await project.keyFor(["schemas.read", "schemas.write", "records.read", "records.create", "records.update", "records.delete"]) } }),
);

describe("schemas API", () => {
  it("creates schemas (201), lists them by name, filters by kind and reads one", async ({ project, api }) => {
    const seo = await api.call<Body>("POST", "/schemas", { name: "seo", kind: "component", fields: [{ name: "metaTitle", type: "string" }] });
    expect(seo.status).toBe(201);
    const articles = await api.call<Body>("POST", "/schemas", {
      name: "articles",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "seo", type: "component", component: "seo" },
      ],
    });
    expect(articles.status).toBe(201);
    expect(articles.headers.get("location")).toBe(`/api/projects/${project.projectId}/schemas/articles`);
    expect(articles.body).toMatchObject({
      name: "articles",
      kind: "collection",
      version: 1,
      fields: [
        { name: "title", type: "string", required: true },
        { name: "seo", type: "component", component: "seo" },
      ],
    });
    expect(articles.body.id).toMatch(/^sch_/);
    expect(articles.body.createdAt).toBe(articles.body.updatedAt);

    const list = await api.call<Body>("GET", "/schemas");
    expect(list.status).toBe(200);
    expect(list.body.data!.map((schema) => schema.name)).toEqual(["articles", "seo"]);
    expect((await api.call<Body>("GET", "/schemas?kind=component")).body.data!.map((schema) => schema.name)).toEqual(["seo"]);
    expect((await api.call<Body>("GET", "/schemas?kind=auth")).body.data).toEqual([]);

    const one = await api.call<Body>("GET", "/schemas/articles");
    expect(one.status).toBe(200);
    expect(one.body).toEqual(articles.body);
  });

  it("works for the signed-in dashboard owner too", async ({ ownerApi }) => {
    const created = await ownerApi.call<Body>("POST", "/schemas", { name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] });
    expect(created.status).toBe(201);
    expect((await ownerApi.call<Body>("GET", "/schemas/members")).body).toMatchObject({ name: "members", kind: "auth" });
    const deleted = await ownerApi.call<Body>("DELETE", "/schemas/members");
    expect(deleted.body).toEqual({ deleted: "members", deletedRecords: 0, deletedFiles: 0 });
  });

  it("updates with the whole definition as GET answered it, and says what happens to data", async ({ api }) => {
    const current = (await api.call<Body>("GET", "/schemas/articles")).body;
    const fields = [...(current.fields as Json[]), { name: "views", type: "integer" }];
    const updated = await api.call<Body>("PATCH", "/schemas/articles", { ...current, fields });
    expect(updated.status).toBe(200);
    expect(updated.body.dryRun).toBe(false);
    expect(updated.body.schema).toMatchObject({ name: "articles", version: 2, fields });
    expect(updated.body.effects).toMatchObject({ addedFields: ["views"], removedFields: [], changedTypes: [], requiresConfirmation: false });
    // name and kind may be left out: they cannot change anyway.
    const short = await api.call<Body>("PATCH", "/schemas/articles", { fields, version: 2 });
    expect(short.status).toBe(200);
    expect((short.body.schema as Json).version).toBe(3);
    expect(short.body.effects).toMatchObject({ addedFields: [], removedFields: [], requiresConfirmation: false, notes: [] });
  });

  it("answers the effects of removing a field or changing a type without saving on dryRun, and keeps the data when saved", async ({ api }) => {
    const record = await api.call<Body>("POST", "/records/articles", { title: "Kept", views: 7 });
    expect(record.status).toBe(201);
    const before = (await api.call<Body>("GET", "/schemas/articles")).body;
    const withoutViews = [
      { name: "title", type: "text", required: true },
      { name: "seo", type: "component", component: "seo" },
    ];

    const dry = await api.call<Body>("PATCH", "/schemas/articles?dryRun=true", { fields: withoutViews });
    expect(dry.status).toBe(200);
    expect(dry.body.dryRun).toBe(true);
    expect(dry.body.effects).toMatchObject({
      removedFields: ["views"],
      changedTypes: [{ field: "title", from: "string", to: "text" }],
      requiresConfirmation: true,
    });
    expect((dry.body.effects as { notes: string[] }).notes.join(" ")).toContain('Field "views" is removed from the API: its stored values stay in the records');
    expect((dry.body.schema as Json).version).toBe(before.version);
    expect((await api.call<Body>("GET", "/schemas/articles")).body).toEqual(before);

    const saved = await api.call<Body>("PATCH", "/schemas/articles", { fields: withoutViews });
    expect(saved.status).toBe(200);
    const hidden = await api.call<Body>("GET", `/records/articles/${record.body.id as string}`);
    expect(hidden.body).not.toHaveProperty("views");
    expect(hidden.body.title).toBe("Kept");
    // Writes naming the removed field are refused; adding it back shows the stored value again.
    expect((await api.call<Body>("PATCH", `/records/articles/${record.body.id as string}`, { views: 8 })).status).toBe(422);
    const restored = await api.call<Body>("PATCH", "/schemas/articles", { fields: [...withoutViews, { name: "views", type: "integer" }] });
    expect(restored.status).toBe(200);
    expect((await api.call<Body>("GET", `/records/articles/${record.body.id as string}`)).body.views).toBe(7);
  });

  it("creates and drops unique indexes as fields become unique or stop being unique", async ({ api }) => {
    const fields = [
      { name: "title", type: "text", required: true },
      { name: "seo", type: "component", component: "seo" },
      { name: "views", type: "integer" },
    ];
    const unique = await api.call<Body>("PATCH", "/schemas/articles", { fields: [...fields, { name: "code", type: "string", unique: true }] });
    expect(unique.status).toBe(200);
    expect(unique.body.effects).toMatchObject({ uniqueIndexesCreated: ["code"], uniqueIndexesDropped: [] });
    expect((await api.call<Body>("POST", "/records/articles", { title: "A", code: "same" })).status).toBe(201);
    const duplicate = await api.call<Body>("POST", "/records/articles", { title: "B", code: "same" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.field).toBe("code");

    const plain = await api.call<Body>("PATCH", "/schemas/articles", { fields: [...fields, { name: "code", type: "string" }] });
    expect(plain.body.effects).toMatchObject({ uniqueIndexesCreated: [], uniqueIndexesDropped: ["code"] });
    expect((await api.call<Body>("POST", "/records/articles", { title: "B", code: "same" })).status).toBe(201);
  });

  it("deletes an empty schema and a component at once, and a schema with records only when confirmed", async ({ api }) => {
    const empty = await api.call<Body>("POST", "/schemas", { name: "scratch", kind: "collection", fields: [{ name: "x", type: "string" }] });
    expect(empty.status).toBe(201);
    expect((await api.call<Body>("DELETE", "/schemas/scratch")).body).toEqual({ deleted: "scratch", deletedRecords: 0, deletedFiles: 0 });
    expect((await api.call<Body>("GET", "/schemas/scratch")).status).toBe(404);

    const count = (await api.call<Body>("GET", "/records/articles?perPage=1")).body.meta as { total: number };
    expect(count.total).toBeGreaterThan(0);
    const confirmed = await api.call<Body>("DELETE", "/schemas/articles?confirm=true");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ deleted: "articles", deletedRecords: count.total, deletedFiles: 0 });
    expect((await api.call<Body>("GET", "/records/articles")).status).toBe(404);

    // The component is free now that nothing uses it.
    expect((await api.call<Body>("DELETE", "/schemas/seo")).body).toEqual({ deleted: "seo", deletedRecords: 0, deletedFiles: 0 });
  });

  it("accepts the confirmation in the body as well", async ({ api }) => {
    await api.call<Body>("POST", "/schemas", { name: "notes", kind: "collection", fields: [{ name: "text", type: "string" }] });
    await api.call<Body>("POST", "/records/notes", { text: "one" });
    await api.call<Body>("POST", "/records/notes", { text: "two" });
    const deleted = await api.call<Body>("DELETE", "/schemas/notes", { confirm: true });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deletedRecords).toBe(2);
    // A schema created again under the name starts empty.
    await api.call<Body>("POST", "/schemas", { name: "notes", kind: "collection", fields: [{ name: "text", type: "string" }] });
    expect(((await api.call<Body>("GET", "/records/notes")).body.meta as Json).total).toBe(0);
  });
});
