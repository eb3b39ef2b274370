import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi } from "@/test/support/project-api";

/**
 * Security cases specific to the schemas API (the generic sweep of every project route —
 * no credentials, revoked keys, other projects' keys, missing permission, non-members — is in
 * project-routes.security.test.ts).
 */
type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body: Json & { data?: Json[]; issues?: { path: string; message: string }[] };
}

let server: RouteServer;
let mine: ProjectFixture;
let theirs: ProjectFixture;
let writeKey: string;

beforeAll(async () => {
  server = await startRouteServer();
  mine = await createProjectFixture("Mine");
  theirs = await createProjectFixture("Theirs");
  writeKey = await mine.keyFor(["schemas.read", "schemas.write"]);
  const theirKey = await theirs.keyFor(["schemas.write"]);
  const created = await call(theirs.projectId, theirKey, "POST", "/schemas", { name: "secrets", kind: "collection", fields: [{ name: "value", type: "string" }] });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function call(projectId: string, key: string, method: string, pathname: string, body?: unknown): Promise<Answer> {
  return projectApi(server, { projectId }, { key }).call<Answer["body"]>(method, pathname, body);
}

describe("schemas API security", () => {
  it("never shows or touches another project's schemas", async () => {
    expect((await call(mine.projectId, writeKey, "GET", "/schemas")).body.data).toEqual([]);
    for (const [method, body] of [["GET"], ["PATCH", { fields: [] }], ["DELETE"]] as const) {
      const answer = await call(mine.projectId, writeKey, method, "/schemas/secrets", body);
      expect(answer.status, method).toBe(404);
      expect(answer.body.error).toBe('no schema named "secrets" in this project');
    }
    // The same name can be used in this project without colliding.
    expect((await call(mine.projectId, writeKey, "POST", "/schemas", { name: "secrets", kind: "collection", fields: [] })).status).toBe(201);
    const theirKey = await theirs.keyFor(["schemas.read"]);
    const theirSchema = await call(theirs.projectId, theirKey, "GET", "/schemas/secrets");
    expect(theirSchema.body.fields).toEqual([{ name: "value", type: "string" }]);
    // Reaching into their project with my key reveals nothing.
    const across = await call(theirs.projectId, writeKey, "GET", "/schemas/secrets");
    expect(across.status).toBe(404);
    expect(across.body).toEqual({ error: "project not found", code: "not_found" });
  });

  it("separates reading from writing", async () => {
    const readOnly = await mine.keyFor(["schemas.read"]);
    expect((await call(mine.projectId, readOnly, "GET", "/schemas")).status).toBe(200);
    expect((await call(mine.projectId, readOnly, "GET", "/schemas/secrets")).status).toBe(200);
    for (const [method, pathname, body] of [
      ["POST", "/schemas", { name: "x", kind: "collection", fields: [] }],
      ["PATCH", "/schemas/secrets", { fields: [] }],
      ["DELETE", "/schemas/secrets?confirm=true", undefined],
    ] as const) {
      const answer = await call(mine.projectId, readOnly, method, pathname, body);
      expect(answer.status, `${method} ${pathname}`).toBe(403);
    }
    const writeOnly = await mine.keyFor(["schemas.write"]);
    expect((await call(mine.projectId, writeOnly, "GET", "/schemas")).status).toBe(403);
    const recordsKey = await mine.keyFor(["records.read", "records.create", "records.update", "records.delete"]);
    expect((await call(mine.projectId, recordsKey, "GET", "/schemas")).status).toBe(403);
    expect((await call(mine.projectId, recordsKey, "POST", "/schemas", { name: "y", kind: "collection", fields: [] })).status).toBe(403);
  });

  it("refuses operator-like and dotted keys and names anywhere in a definition", async () => {
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
      const answer = await call(mine.projectId, writeKey, "POST", "/schemas", definition);
      expect(answer.status, JSON.stringify(definition)).toBe(422);
      expect(
        answer.body.issues!.map((issue) => issue.path),
        JSON.stringify(definition),
      ).toContain(issuePath);
    }
    expect(({} as Json).polluted).toBeUndefined();
    expect((await call(mine.projectId, writeKey, "GET", "/schemas")).body.data!.map((schema) => schema.name)).toEqual(["secrets"]);
  });

  it("cannot reach platform collections or other paths through the schema name", async () => {
    for (const name of ["_files", "_file_chunks", "secrets%2F..", "secrets%00", "SECRETS"]) {
      const answer = await call(mine.projectId, writeKey, "GET", `/schemas/${name}`);
      expect(answer.status, name).toBe(404);
    }
    const records = await mine.keyFor(["records.read"]);
    for (const name of ["_files", "_file_chunks"]) {
      const answer = await call(mine.projectId, records, "GET", `/records/${name}`);
      expect(answer.status, name).toBe(404);
    }
  });
});
