import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body: Json & { data?: Json[]; issues?: { path: string; message: string }[] };
  headers: Headers;
}

let server: RouteServer;
let fixture: ProjectFixture;
let key: string;

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture("Schemas happy");
  key = await fixture.keyFor(["schemas.read", "schemas.write", "records.read", "records.create", "records.update", "records.delete"]);
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

async function call(method: string, pathname: string, body?: unknown, auth: Record<string, string> = { authorization: `Bearer ${key}` }): Promise<Answer> {
  const response = await fetch(`${server.url}/api/projects/${fixture.projectId}${pathname}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer["body"]) : {}, headers: response.headers };
}

describe("schemas API", () => {
  it("creates schemas (201), lists them by name, filters by kind and reads one", async () => {
    const seo = await call("POST", "/schemas", { name: "seo", kind: "component", fields: [{ name: "metaTitle", type: "string" }] });
    expect(seo.status).toBe(201);
    const articles = await call("POST", "/schemas", {
      name: "articles",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "seo", type: "component", component: "seo" },
      ],
    });
    expect(articles.status).toBe(201);
    expect(articles.headers.get("location")).toBe(`/api/projects/${fixture.projectId}/schemas/articles`);
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

    const list = await call("GET", "/schemas");
    expect(list.status).toBe(200);
    expect(list.body.data!.map((schema) => schema.name)).toEqual(["articles", "seo"]);
    expect((await call("GET", "/schemas?kind=component")).body.data!.map((schema) => schema.name)).toEqual(["seo"]);
    expect((await call("GET", "/schemas?kind=auth")).body.data).toEqual([]);

    const one = await call("GET", "/schemas/articles");
    expect(one.status).toBe(200);
    expect(one.body).toEqual(articles.body);
  });

  it("works for the signed-in dashboard owner too", async () => {
    const cookie = { cookie: fixture.owner.cookie };
    const created = await call("POST", "/schemas", { name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] }, cookie);
    expect(created.status).toBe(201);
    expect((await call("GET", "/schemas/members", undefined, cookie)).body).toMatchObject({ name: "members", kind: "auth" });
    const deleted = await call("DELETE", "/schemas/members", undefined, cookie);
    expect(deleted.body).toEqual({ deleted: "members", deletedRecords: 0, deletedFiles: 0 });
  });

  it("updates with the whole definition as GET answered it, and says what happens to data", async () => {
    const current = (await call("GET", "/schemas/articles")).body;
    const fields = [...(current.fields as Json[]), { name: "views", type: "integer" }];
    const updated = await call("PATCH", "/schemas/articles", { ...current, fields });
    expect(updated.status).toBe(200);
    expect(updated.body.dryRun).toBe(false);
    expect(updated.body.schema).toMatchObject({ name: "articles", version: 2, fields });
    expect(updated.body.effects).toMatchObject({ addedFields: ["views"], removedFields: [], changedTypes: [], requiresConfirmation: false });
    // name and kind may be left out: they cannot change anyway.
    const short = await call("PATCH", "/schemas/articles", { fields, version: 2 });
    expect(short.status).toBe(200);
    expect((short.body.schema as Json).version).toBe(3);
    expect(short.body.effects).toMatchObject({ addedFields: [], removedFields: [], requiresConfirmation: false, notes: [] });
  });

  it("answers the effects of removing a field or changing a type without saving on dryRun, and keeps the data when saved", async () => {
    const record = await call("POST", "/records/articles", { title: "Kept", views: 7 });
    expect(record.status).toBe(201);
    const before = (await call("GET", "/schemas/articles")).body;
    const withoutViews = [
      { name: "title", type: "text", required: true },
      { name: "seo", type: "component", component: "seo" },
    ];

    const dry = await call("PATCH", "/schemas/articles?dryRun=true", { fields: withoutViews });
    expect(dry.status).toBe(200);
    expect(dry.body.dryRun).toBe(true);
    expect(dry.body.effects).toMatchObject({
      removedFields: ["views"],
      changedTypes: [{ field: "title", from: "string", to: "text" }],
      requiresConfirmation: true,
    });
    expect((dry.body.effects as { notes: string[] }).notes.join(" ")).toContain('Field "views" is removed from the API: its stored values stay in the records');
    expect((dry.body.schema as Json).version).toBe(before.version);
    expect((await call("GET", "/schemas/articles")).body).toEqual(before);

    const saved = await call("PATCH", "/schemas/articles", { fields: withoutViews });
    expect(saved.status).toBe(200);
    const hidden = await call("GET", `/records/articles/${record.body.id as string}`);
    expect(hidden.body).not.toHaveProperty("views");
    expect(hidden.body.title).toBe("Kept");
    // Writes naming the removed field are refused; adding it back shows the stored value again.
    expect((await call("PATCH", `/records/articles/${record.body.id as string}`, { views: 8 })).status).toBe(422);
    const restored = await call("PATCH", "/schemas/articles", { fields: [...withoutViews, { name: "views", type: "integer" }] });
    expect(restored.status).toBe(200);
    expect((await call("GET", `/records/articles/${record.body.id as string}`)).body.views).toBe(7);
  });

  it("creates and drops unique indexes as fields become unique or stop being unique", async () => {
    const fields = [
      { name: "title", type: "text", required: true },
      { name: "seo", type: "component", component: "seo" },
      { name: "views", type: "integer" },
    ];
    const unique = await call("PATCH", "/schemas/articles", { fields: [...fields, { name: "code", type: "string", unique: true }] });
    expect(unique.status).toBe(200);
    expect(unique.body.effects).toMatchObject({ uniqueIndexesCreated: ["code"], uniqueIndexesDropped: [] });
    expect((await call("POST", "/records/articles", { title: "A", code: "same" })).status).toBe(201);
    const duplicate = await call("POST", "/records/articles", { title: "B", code: "same" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.field).toBe("code");

    const plain = await call("PATCH", "/schemas/articles", { fields: [...fields, { name: "code", type: "string" }] });
    expect(plain.body.effects).toMatchObject({ uniqueIndexesCreated: [], uniqueIndexesDropped: ["code"] });
    expect((await call("POST", "/records/articles", { title: "B", code: "same" })).status).toBe(201);
  });

  it("deletes an empty schema and a component at once, and a schema with records only when confirmed", async () => {
    const empty = await call("POST", "/schemas", { name: "scratch", kind: "collection", fields: [{ name: "x", type: "string" }] });
    expect(empty.status).toBe(201);
    expect((await call("DELETE", "/schemas/scratch")).body).toEqual({ deleted: "scratch", deletedRecords: 0, deletedFiles: 0 });
    expect((await call("GET", "/schemas/scratch")).status).toBe(404);

    const count = (await call("GET", "/records/articles?perPage=1")).body.meta as { total: number };
    expect(count.total).toBeGreaterThan(0);
    const confirmed = await call("DELETE", "/schemas/articles?confirm=true");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ deleted: "articles", deletedRecords: count.total, deletedFiles: 0 });
    expect((await call("GET", "/records/articles")).status).toBe(404);

    // The component is free now that nothing uses it.
    expect((await call("DELETE", "/schemas/seo")).body).toEqual({ deleted: "seo", deletedRecords: 0, deletedFiles: 0 });
  });

  it("accepts the confirmation in the body as well", async () => {
    await call("POST", "/schemas", { name: "notes", kind: "collection", fields: [{ name: "text", type: "string" }] });
    await call("POST", "/records/notes", { text: "one" });
    await call("POST", "/records/notes", { text: "two" });
    const deleted = await call("DELETE", "/schemas/notes", { confirm: true });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deletedRecords).toBe(2);
    // A schema created again under the name starts empty.
    await call("POST", "/schemas", { name: "notes", kind: "collection", fields: [{ name: "text", type: "string" }] });
    expect(((await call("GET", "/records/notes")).body.meta as Json).total).toBe(0);
  });
});
