import { describe, expect } from "vitest";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

type Json = Record<string, unknown>;

/** The route tests' fixtures, and `api`: the project's API with a key for schemas and records, over three schemas. */
const it = routeTest.extend("api", { scope: "file" }, async ({ server, project }) => {
  const api = projectApi(server, project, { key: await project.keyFor(["schemas.read", "schemas.write", "records.read", "records.create"]) });
  for (const definition of [
    {
      name: "people",
      kind: "collection",
      fields: [
        { name: "name", type: "string" },
        { name: "nick", type: "string" },
      ],
    },
    { name: "card", kind: "component", fields: [{ name: "label", type: "string" }] },
    {
      name: "posts",
      kind: "collection",
      fields: [
        { name: "author", type: "relation", target: "people" },
        { name: "card", type: "component", component: "card" },
      ],
    },
  ]) {
    expect((await api.call("POST", "/schemas", definition)).status).toBe(201);
  }
  return api;
});

describe("creating schemas: errors", () => {
  it("answers 422 with issue paths for invalid definitions", async ({ api }) => {
    const cases: Array<[unknown, string]> = [
      [{ name: "Bad Name", kind: "collection", fields: [] }, "name"],
      [{ name: "things", kind: "table", fields: [] }, "kind"],
      [{ name: "things", kind: "collection", fields: [{ name: "x", type: "colour" }] }, "fields.0.type"],
      [{ name: "things", kind: "collection", fields: [{ name: "x", type: "string", pattern: "(a+)+" }] }, "fields.0.pattern"],
      [{ name: "things", kind: "collection", fields: [{ name: "x", type: "number", pattern: "^a$" }] }, "fields.0"],
      [{ name: "things", kind: "collection", fields: [{ name: "id", type: "string" }] }, "fields.0.name"],
      [
        {
          name: "things",
          kind: "collection",
          fields: [
            { name: "a", type: "string" },
            { name: "A", type: "string" },
          ],
        },
        "fields.1.name",
      ],
      [{ name: "things", kind: "collection", fields: [{ name: "s", type: "enum", values: [] }] }, "fields.0.values"],
      [{ name: "things", kind: "collection", fields: [{ name: "n", type: "integer", min: 5, max: 1 }] }, "fields.0.max"],
      [{ name: "things", kind: "collection", fields: [{ name: "n", type: "string", unique: true, default: "x" }] }, "fields.0.default"],
      [{ name: "things", kind: "collection", fields: [{ name: "f", type: "file", accept: ["not a type"] }] }, "fields.0.accept.0"],
      [{ name: "things", kind: "collection", fields: "none" }, "fields"],
    ];
    for (const [definition, issuePath] of cases) {
      const answer = await api.call("POST", "/schemas", definition);
      expect(answer.status, JSON.stringify(definition)).toBe(422);
      expect(
        answer.body.issues!.map((issue) => issue.path),
        JSON.stringify(definition),
      ).toContain(issuePath);
    }
  });

  it("answers 422 when a definition does not fit the project's other schemas", async ({ api }) => {
    const missingTarget = await api.call("POST", "/schemas", { name: "things", kind: "collection", fields: [{ name: "owner", type: "relation", target: "nobody" }] });
    expect(missingTarget.status).toBe(422);
    expect(missingTarget.body.issues).toContainEqual(expect.objectContaining({ path: "fields.0.target" }));
    const componentTarget = await api.call("POST", "/schemas", { name: "things", kind: "collection", fields: [{ name: "owner", type: "relation", target: "card" }] });
    expect(componentTarget.status).toBe(422);
    const notAComponent = await api.call("POST", "/schemas", { name: "things", kind: "collection", fields: [{ name: "c", type: "component", component: "people" }] });
    expect(notAComponent.status).toBe(422);
  });

  it("answers 409 for a taken name, 400 for malformed JSON and 413 for an oversized body", async ({ api }) => {
    const taken = await api.call("POST", "/schemas", { name: "people", kind: "collection", fields: [] });
    expect(taken.status).toBe(409);
    expect(taken.body.issues).toEqual([{ path: "name", message: "is already used by another schema" }]);
    expect((await api.call("POST", "/schemas", "{not json")).status).toBe(400);
    const empty = await api.call("POST", "/schemas", "");
    expect(empty.status).toBe(422);
    const huge = await api.call("POST", "/schemas", JSON.stringify({ name: "big", kind: "collection", fields: [], pad: "x".repeat(1_100_000) }));
    expect(huge.status).toBe(413);
  });
});

describe("reading and updating schemas: errors", () => {
  it("answers 404 for a schema the project does not have, and 400 for unknown or malformed parameters", async ({ api }) => {
    expect((await api.call("GET", "/schemas/nothing")).status).toBe(404);
    expect((await api.call("PATCH", "/schemas/nothing", { fields: [] })).status).toBe(404);
    expect((await api.call("DELETE", "/schemas/nothing")).status).toBe(404);
    expect((await api.call("GET", "/schemas?kind=table")).status).toBe(400);
    expect((await api.call("GET", "/schemas?sort=name")).status).toBe(400);
    expect((await api.call("PATCH", "/schemas/people?dryRun=yes", { fields: [] })).status).toBe(400);
    expect((await api.call("PATCH", "/schemas/people?dryRun=true&dryRun=false", { fields: [] })).status).toBe(400);
    expect((await api.call("PATCH", "/schemas/people?force=true", { fields: [] })).status).toBe(400);
    expect((await api.call("DELETE", "/schemas/people?confirm=1")).status).toBe(400);
  });

  it("refuses renaming, changing the kind and a body that is not a definition", async ({ api }) => {
    const rename = await api.call("PATCH", "/schemas/people", { name: "humans", fields: [] });
    expect(rename.status).toBe(422);
    expect(rename.body.issues).toEqual([{ path: "name", message: 'must stay "people"' }]);
    const kind = await api.call("PATCH", "/schemas/people", { kind: "component", fields: [] });
    expect(kind.status).toBe(422);
    expect(kind.body.issues).toEqual([{ path: "kind", message: 'must stay "collection"' }]);
    for (const body of ["[]", '"fields"', "null"]) {
      const answer = await api.call("PATCH", "/schemas/people", body);
      expect(answer.status, body).toBe(422);
      expect(answer.body.issues).toEqual([{ path: "", message: "must be a JSON object" }]);
    }
    const noFields = await api.call("PATCH", "/schemas/people", {});
    expect(noFields.status).toBe(422);
    expect(noFields.body.issues!.map((issue) => issue.path)).toEqual(["fields"]);
    const badVersion = await api.call("PATCH", "/schemas/people", { fields: [], version: "2" });
    expect(badVersion.status).toBe(422);
    expect(badVersion.body.issues).toEqual([{ path: "version", message: "must be a whole number of at least 1" }]);
  });

  it("answers 409 when someone saved meanwhile (version) and changes nothing", async ({ api }) => {
    const current = (await api.call("GET", "/schemas/people")).body;
    const fields = [...(current.fields as Json[]), { name: "age", type: "integer" }];
    expect((await api.call("PATCH", "/schemas/people", { ...current, fields })).status).toBe(200);
    const stale = await api.call("PATCH", "/schemas/people", { ...current, fields: [{ name: "name", type: "string" }] });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain("was changed meanwhile");
    expect(((await api.call("GET", "/schemas/people")).body.fields as Json[]).map((field) => field.name)).toEqual(["name", "nick", "age"]);
  });

  it("answers 409 naming the field when a field becomes unique over duplicate data, and changes nothing", async ({ api }) => {
    expect((await api.call("POST", "/records/people", { name: "Ann", nick: "twin" })).status).toBe(201);
    expect((await api.call("POST", "/records/people", { name: "Bea", nick: "twin" })).status).toBe(201);
    const before = (await api.call("GET", "/schemas/people")).body;
    const unique = await api.call("PATCH", "/schemas/people", {
      fields: [
        { name: "name", type: "string" },
        { name: "nick", type: "string", unique: true },
        { name: "age", type: "integer" },
      ],
    });
    expect(unique.status).toBe(409);
    expect(unique.body.field).toBe("nick");
    expect((await api.call("GET", "/schemas/people")).body).toEqual(before);
    // A dry run does not look at the data: it says an index would be created.
    const dry = await api.call("PATCH", "/schemas/people?dryRun=true", {
      fields: [
        { name: "name", type: "string" },
        { name: "nick", type: "string", unique: true },
        { name: "age", type: "integer" },
      ],
    });
    expect(dry.status).toBe(200);
    expect((dry.body.effects as Json).uniqueIndexesCreated).toEqual(["nick"]);
  });
});

describe("deleting schemas: errors", () => {
  it("answers 409 saying how many records would go, unless confirmed", async ({ api }) => {
    const total = ((await api.call("GET", "/records/people?perPage=1")).body.meta as { total: number }).total;
    expect(total).toBe(2);
    // posts points at people, so deleting posts first; posts itself has no records.
    const refused = await api.call("DELETE", "/schemas/people");
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('schema "people" is used by posts; change those fields first');
    expect(refused.body.issues).toEqual([{ path: "posts.fields.0.target", message: 'relation "author" of posts points at people' }]);

    expect((await api.call("DELETE", "/schemas/posts")).status).toBe(200);
    const unconfirmed = await api.call("DELETE", "/schemas/people");
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body).toEqual({
      error: 'deleting schema "people" would delete its 2 records; confirm to delete them with it',
      code: "conflict",
      issues: [{ path: "confirm", message: "must be true to delete 2 records" }],
    });
    const falseConfirm = await api.call("DELETE", "/schemas/people?confirm=false");
    expect(falseConfirm.status).toBe(409);
    const bodyFalse = await api.call("DELETE", "/schemas/people", { confirm: "true" });
    expect(bodyFalse.status).toBe(409);
    expect(((await api.call("GET", "/records/people?perPage=1")).body.meta as { total: number }).total).toBe(2);
  });

  it("refuses deleting a component that a schema uses", async ({ api }) => {
    await api.call("POST", "/schemas", { name: "pages", kind: "collection", fields: [{ name: "blocks", type: "dynamic_zone", components: ["card"] }] });
    const refused = await api.call("DELETE", "/schemas/card");
    expect(refused.status).toBe(409);
    expect(refused.body.issues).toEqual([{ path: "pages.fields.0.components", message: 'dynamic zone "blocks" of pages allows card' }]);
  });
});
