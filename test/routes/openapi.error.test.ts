import { describe, expect } from "vitest";
import { projectApi } from "@/test/support/project-api";
import { routeTest as test } from "@/test/support/route-test";

describe("GET /openapi.json errors", () => {
  test("answers 404 for a project that does not exist, with a key of another project", async ({ server, project }) => {
    const key = await project.keyFor(["endpoints.read"]);
    for (const projectId of ["prj_00000000000000000000000000", "not-a-project-id"]) {
      const answer = await projectApi(server, { projectId }, { key }).call("GET", "/openapi.json");
      expect(answer.status, projectId).toBe(404);
      expect(answer.body).toEqual({ error: "project not found", code: "not_found" });
    }
  });

  test("answers 401 to a bad key, even on a project whose document is public", async ({ server, project, ownerApi }) => {
    for (const key of ["fpk_notarealkey", ""]) {
      const answer = await projectApi(server, project, { key }).call("GET", "/openapi.json");
      expect(answer.status, key).toBe(401);
      expect(answer.body.code).toBe("unauthorized");
    }
    expect((await ownerApi.call("PATCH", "", { openapiPublic: true })).status).toBe(200);
    const answer = await projectApi(server, project, { key: "fpk_notarealkey" }).call("GET", "/openapi.json");
    expect(answer.status).toBe(401);
    expect((await ownerApi.call("PATCH", "", { openapiPublic: false })).status).toBe(200);
  });

  test("refuses a non-boolean public setting", async ({ ownerApi }) => {
    const answer = await ownerApi.call("PATCH", "", { openapiPublic: "yes" });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([expect.objectContaining({ path: "openapiPublic" })]);
  });
});
