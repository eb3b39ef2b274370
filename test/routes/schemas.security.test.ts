import { describe, expect } from "vitest";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Security cases specific to the schemas API (the generic sweep of every project route —
 * no credentials, revoked keys, other projects' keys, missing permission, non-members — is in
 * project-routes.security.test.ts).
 */
type Json = Record<string, unknown>;
type Body = Json & { data?: Json[]; issues?: { path: string; message: string }[] };

const it = routeTest
  /** Another project, with a `secrets` schema of its own. */
  .extend("theirs", { scope: "file" }, async ({ server }) => {
    const theirs = await createProjectFixture("Theirs");
    const created = await projectApi(server, theirs, { key: await theirs.keyFor(["schemas.write"]) }).call("POST", "/schemas", {
      name: "secrets",
      kind: "collection",
      fields: [{ name: "value", type: "string" }],
    });
    expect(created.status).toBe(201);
    return theirs;
  })
  /** The client for this project with a key that may read and write schemas. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => ownerApi.with({ credentials: { key: await project.keyFor(["schemas.read", "schemas.write"]) } }));

describe("schemas API security", () => {
  it("never shows or touches another project's schemas", async ({ server, theirs, api }) => {
    expect((await api.call<Body>("GET", "/schemas")).body.data).toEqual([]);
    for (const [method, body] of [["GET"], ["PATCH", { fields: [] }], ["DELETE"]] as const) {
      const answer = await api.call<Body>(method, "/schemas/secrets", body);
      expect(answer.status, method).toBe(404);
      expect(answer.body.error).toBe('no schema named "secrets" in this project');
    }
    // The same name can be used in this project without colliding.
    expect((await api.call<Body>("POST", "/schemas", { name: "secrets", kind: "collection", fields: [] })).status).toBe(201);
    const theirKey = await theirs.keyFor(["schemas.read"]);
    const theirSchema = await projectApi(server, theirs, { key: theirKey }).call("GET", "/schemas/secrets");
    expect(theirSchema.body.fields).toEqual([{ name: "value", type: "string" }]);
    // Reaching into their project with my key reveals nothing.
    const across = await api.with({ projectId: theirs.projectId }).call("GET", "/schemas/secrets");
    expect(across.status).toBe(404);
    expect(across.body).toEqual({ error: "project not found", code: "not_found" });
  });

  it("separates reading from writing", async ({ project, api }) => {
    const readOnly = api.with({ credentials: { key: await project.keyFor(["schemas.read"]) } });
    expect((await readOnly.call("GET", "/schemas")).status).toBe(200);
    expect((await readOnly.call("GET", "/schemas/secrets")).status).toBe(200);
    for (const [method, pathname, body] of [
      ["POST", "/schemas", { name: "x", kind: "collection", fields: [] }],
      ["PATCH", "/schemas/secrets", { fields: [] }],
      ["DELETE", "/schemas/secrets?confirm=true", undefined],
    ] as const) {
      const answer = await readOnly.call(method, pathname, body);
      expect(answer.status, `${method} ${pathname}`).toBe(403);
    }
    const writeOnly = api.with({ credentials: { key: await project.keyFor(["schemas.write"]) } });
    expect((await writeOnly.call("GET", "/schemas")).status).toBe(403);
    const recordsApi = api.with({ credentials: { key: await project.keyFor(["records.read", "records.create", "records.update", "records.delete"]) } });
    expect((await recordsApi.call("GET", "/schemas")).status).toBe(403);
    expect((await recordsApi.call("POST", "/schemas", { name: "y", kind: "collection", fields: [] })).status).toBe(403);
  });

  it("refuses operator-like and dotted keys and names anywhere in a definition", async ({ api }) => {
    const cases: Array<[unknown, string]> = [
      [{ name: "a", kind: "collection", fields: [], $where: "1" }, ""],
      [{ name: "a", kind: "collection", fields: [{ name: "x", type: "string", $gt: 1 }] }, "fields.0"],
      [{ name: "a", kind: "collection", fields: [{ name: "$x", type: "string" }] }, "fields.0.name"],
      [{ name: "a", kind: "collection", fields: [{ name: "x.y", type: "string" }] }, "fields.0.name"],
      [{ name: "a", kind: "collection", fields: [{ name: "__proto__", type: "string" }] }, "fields.0.name"],
      [{ name: "$cmd", kind: "collection", fields: [] }, "name"],
      [{ name: "a.b", kind: "collection", fields: [] }, "name"],
      [{ name: "_files", kind: "collection", fields: [] }, "name"],
      [{ name: "a", kind: "collection", fields: [{ name: "j", type: "json", default: { $ne: null } }] }, "fields.0.default"],
    ];
    for (const [definition, issuePath] of cases) {
      const answer = await api.call<Body>("POST", "/schemas", definition);
      expect(answer.status, JSON.stringify(definition)).toBe(422);
      expect(
        answer.body.issues!.map((issue) => issue.path),
        JSON.stringify(definition),
      ).toContain(issuePath);
    }
    expect(({} as Json).polluted).toBeUndefined();
    expect((await api.call<Body>("GET", "/schemas")).body.data!.map((schema) => schema.name)).toEqual(["secrets"]);
  });

  it("cannot reach platform collections or other paths through the schema name", async ({ project, api }) => {
    for (const name of ["_files", "_file_chunks", "secrets%2F..", "secrets%00", "SECRETS"]) {
      const answer = await api.call<Body>("GET", `/schemas/${name}`);
      expect(answer.status, name).toBe(404);
    }
    const recordsReader = api.with({ credentials: { key: await project.keyFor(["records.read"]) } });
    for (const name of ["_files", "_file_chunks"]) {
      const answer = await recordsReader.call("GET", `/records/${name}`);
      expect(answer.status, name).toBe(404);
    }
  });
});
