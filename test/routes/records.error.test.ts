import { describe, expect } from "vitest";
import type { ApiBody } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

const it = routeTest
  /** The client with a key for schemas and records, on a project with `people`, a `card` component and `items` of every field kind. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    const api = ownerApi.with({ credentials: { key: await project.keyFor(["schemas.write", "records.read", "records.create", "records.update", "records.delete"]) } });
    for (const definition of [
      { name: "card", kind: "component", fields: [{ name: "label", type: "string" }] },
      { name: "people", kind: "collection", fields: [{ name: "name", type: "string" }] },
      {
        name: "items",
        kind: "collection",
        fields: [
          { name: "title", type: "string" },
          { name: "qty", type: "integer" },
          { name: "done", type: "boolean" },
          { name: "data", type: "json" },
          { name: "owner", type: "relation", target: "people" },
          { name: "watchers", type: "relation", target: "people", many: true },
          { name: "card", type: "component", component: "card" },
        ],
      },
    ]) {
      expect((await api.call("POST", "/schemas", definition)).status).toBe(201);
    }
    return api;
  })
  /** The id of an item, made before the file's first test. */
  .extend("recordId", { scope: "file", auto: true }, async ({ api }) => (await api.call("POST", "/records/items", { title: "one" })).body.id as string);

describe("records API: not found", () => {
  it("answers 404 for a schema the project does not have, on every route", async ({ api, recordId }) => {
    for (const [method, pathname] of [
      ["GET", "/records/nothing"],
      ["POST", "/records/nothing"],
      ["GET", `/records/nothing/${recordId}`],
      ["PATCH", `/records/nothing/${recordId}`],
      ["DELETE", `/records/nothing/${recordId}`],
    ] as const) {
      const answer = await api.call(method, pathname, method === "POST" || method === "PATCH" ? { title: "x" } : undefined);
      expect(answer.status, `${method} ${pathname}`).toBe(404);
      expect(answer.body.error).toBe('no schema named "nothing" in this project');
    }
  });

  it("answers 404 for a component, which has no records of its own", async ({ api }) => {
    for (const [method, pathname] of [
      ["GET", "/records/card"],
      ["POST", "/records/card"],
      ["GET", "/records/card/rec_x"],
    ] as const) {
      const answer = await api.call(method, pathname, method === "POST" ? { label: "x" } : undefined);
      expect(answer.status, `${method} ${pathname}`).toBe(404);
      expect(answer.body.error).toBe('"card" is a component: it has no records of its own');
    }
  });

  it("answers 404 for unknown record ids and ids that cannot exist", async ({ api }) => {
    for (const id of ["rec_unknown", "has%20space", "x".repeat(129), "a.b", "%24ne"]) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const answer = await api.call(method, `/records/items/${id}`, method === "PATCH" ? { title: "x" } : undefined);
        expect(answer.status, `${method} ${id}`).toBe(404);
      }
    }
  });
});

describe("records API: malformed list queries (400 naming the parameter)", () => {
  it("refuses unknown parameters, fields, operators and values that do not fit the field", async ({ api }) => {
    const cases: Array<[string, string]> = [
      ["limit=5", "limit"],
      ["filter[colour]=red", "filter[colour]"],
      ["filter[title][like]=x", "filter[title][like]"],
      ["filter[qty][contains]=1", "filter[qty][contains]"],
      ["filter[done][gt]=true", "filter[done][gt]"],
      ["filter[qty]=many", "filter[qty]"],
      ["filter[qty][in]=1,two", "filter[qty][in]"],
      ["filter[done]=yes", "filter[done]"],
      ["filter[data]=x", "filter[data]"],
      ["filter[watchers]=rec_x", "filter[watchers]"],
      ["filter[card]=x", "filter[card]"],
      ["filter[createdAt][gt]=yesterday", "filter[createdAt][gt]"],
      ["filter[id][gt]=rec_a", "filter[id][gt]"],
      ["filter[title][contains]=", "filter[title][contains]"],
      [`filter[qty][in]=${Array.from({ length: 101 }, (_, index) => index).join(",")}`, "filter[qty][in]"],
      ["sort=colour", "sort"],
      ["sort=data", "sort"],
      ["sort=title,title", "sort"],
      ["sort=a,b,c,d,e,f", "sort"],
      ["sort=", "sort"],
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=1.5", "page"],
      ["perPage=0", "perPage"],
      ["perPage=1000", "perPage"],
      ["total=no", "total"],
      ["expand=title", "expand"],
      ["expand=colour", "expand"],
      ["page=1&page=2", "page"],
      [`search=${"x".repeat(201)}`, "search"],
    ];
    for (const [query, parameter] of cases) {
      const answer = await api.call("GET", `/records/items?${query}`);
      expect(answer.status, query).toBe(400);
      expect(
        answer.body.issues!.map((issue) => issue.path),
        query,
      ).toContain(parameter);
    }
  });

  it("refuses unknown parameters and non-relation expansions on a single record", async ({ api, recordId }) => {
    const unknown = await api.call("GET", `/records/items/${recordId}?fields=title`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: "fields", message: "is not a known query parameter (expand)" }]);
    expect((await api.call("GET", `/records/items/${recordId}?expand=title`)).status).toBe(400);
    expect((await api.call("GET", `/records/items/${recordId}?expand=owner&expand=watchers`)).status).toBe(400);
    const expanded = await api.call("GET", `/records/items/${recordId}?expand=owner,watchers`);
    expect(expanded.status).toBe(200);
    expect(expanded.body.expand).toEqual({ owner: null, watchers: [] });
  });
});

describe("records API: malformed writes", () => {
  it("answers every problem of a write in one 422, invalid values and missing related records alike, each with its path", async ({ api, recordId }) => {
    const answer = await api.call("POST", "/records/items", { qty: "many", done: "maybe", owner: "rec_nobody", watchers: ["rec_ghost"], card: { label: 5 } });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      error: "invalid items record: qty: must be an integer (and 4 more)",
      code: "validation_failed",
      issues: [
        { path: "qty", message: "must be an integer" },
        { path: "done", message: "must be true or false" },
        { path: "card.label", message: "must be a string" },
        { path: "owner", message: 'no people record has the id "rec_nobody"' },
        { path: "watchers.0", message: 'no people record has the id "rec_ghost"' },
      ],
    });
    const update = await api.call("PATCH", `/records/items/${recordId}`, { qty: 1.5, owner: "rec_nobody" });
    expect(update.status).toBe(422);
    expect(update.body.issues).toEqual([
      { path: "qty", message: "must be an integer" },
      { path: "owner", message: 'no people record has the id "rec_nobody"' },
    ]);
  });

  it("answers 400 for malformed JSON, 422 for a body that is not an object, 413 over 1 MB", async ({ api, recordId }) => {
    expect((await api.call("POST", "/records/items", "{broken")).status).toBe(400);
    expect((await api.call("PATCH", `/records/items/${recordId}`, "{broken")).status).toBe(400);
    const empty = await api.call("POST", "/records/items", "");
    expect(empty.status).toBe(422);
    expect(empty.body.issues).toEqual([{ path: "", message: "must be a JSON object" }]);
    const huge = await api.call("POST", "/records/items", JSON.stringify({ title: "x".repeat(1_000_001) }));
    expect(huge.status).toBe(413);
  });

  it("answers 415 for bodies that are neither JSON nor multipart form data", async ({ api }) => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/mixed; boundary=x"]) {
      const answer = await api.call("POST", "/records/items", "title=x", { "content-type": type });
      expect(answer.status, type).toBe(415);
      expect(answer.body.error).toBe("send the record as application/json or multipart/form-data");
    }
    // application/*+json is JSON.
    expect((await api.call("POST", "/records/items", JSON.stringify({ title: "ld" }), { "content-type": "application/ld+json" })).status).toBe(201);
  });

  it("answers 400 for multipart bodies without a usable boundary or that end early", async ({ api }) => {
    expect((await api.call("POST", "/records/items", "x", { "content-type": "multipart/form-data" })).status).toBe(400);
    const early = await api.call("POST", "/records/items", '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nunfinished', {
      "content-type": "multipart/form-data; boundary=b",
    });
    expect(early.status).toBe(400);
    expect(early.body.error).toBe("malformed multipart body: the body ends before the closing boundary");
  });

  it("reads plain form fields and a JSON data part, refusing a field given twice", async ({ api }) => {
    const form = new FormData();
    form.append("title", "from a form");
    form.append("qty", "3");
    form.append("done", "true");
    const created = await api.fetch("/records/items", { method: "POST", body: form });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ title: "from a form", qty: 3, done: true });

    const post = (body: FormData) => api.fetch("/records/items", { method: "POST", body });
    const json = (value: string) => new Blob([value], { type: "application/json" });

    const twice = new FormData();
    twice.append("data", json(JSON.stringify({ title: "json" })));
    twice.append("title", "form");
    const refused = await post(twice);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as ApiBody).issues).toEqual([{ path: "title", message: 'is given twice (in "data" and as a form field)' }]);

    // This schema has a field named "data": an untyped "data" part is that field's value, a typed one the record values.
    const field = new FormData();
    field.append("title", "data field");
    field.append("data", "plain text");
    const asField = await post(field);
    expect(asField.status).toBe(201);
    expect(await asField.json()).toMatchObject({ title: "data field", data: "plain text" });
    const values = new FormData();
    values.append("data", json(JSON.stringify({ title: "typed values", data: { nested: true } })));
    const asValues = await post(values);
    expect(asValues.status).toBe(201);
    expect(await asValues.json()).toMatchObject({ title: "typed values", data: { nested: true } });

    const notObject = new FormData();
    notObject.append("data", json("[1]"));
    expect((await post(notObject)).status).toBe(422);
    const badJson = new FormData();
    badJson.append("data", json("{nope"));
    expect((await post(badJson)).status).toBe(400);
    const twoValueParts = new FormData();
    twoValueParts.append("data", json("{}"));
    twoValueParts.append("data", json("{}"));
    expect((await post(twoValueParts)).status).toBe(400);
  });
});
