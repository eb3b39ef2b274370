import { describe, expect } from "vitest";
import type { OpenApiDocument } from "@/lib/openapi/openapi-document";
import { PUBLIC_OPENAPI_RATE_LIMIT } from "@/lib/openapi/enforce-public-openapi-rate-limit";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Security of the OpenAPI document (the generic sweep of every project route is in
 * project-routes.security.test.ts): other projects, permissions, and the public toggle.
 */
const test = routeTest.extend("other", { scope: "file" }, async ({ server }) => {
  const other = await createProjectFixture("Other");
  const created = await projectApi(server, other).call("POST", "/schemas", { name: "their_secrets", kind: "collection", fields: [{ name: "value", type: "string" }] });
  expect(created.status).toBe(201);
  return other;
});

describe("GET /openapi.json security", () => {
  test("answers 404 to a key of another project, revealing nothing", async ({ server, project, other }) => {
    const theirKey = await other.keyFor(["endpoints.read", "records.read"]);
    const answer = await projectApi(server, project, { key: theirKey }).call("GET", "/openapi.json");
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: "project not found", code: "not_found" });
  });

  test("answers 403 to a key with neither endpoints.read nor records.read; either is enough", async ({ server, project }) => {
    const refused = await projectApi(server, project, { key: await project.keyFor(["endpoints.invoke", "schemas.read", "records.create"]) }).call("GET", "/openapi.json");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
    for (const permission of ["endpoints.read", "records.read"] as const) {
      const allowed = await projectApi(server, project, { key: await project.keyFor([permission]) }).call("GET", "/openapi.json");
      expect(allowed.status, permission).toBe(200);
    }
  });

  test("is private by default: 401 without credentials", async ({ server, project }) => {
    const answer = await projectApi(server, project, "anonymous").call("GET", "/openapi.json");
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: "authentication required", code: "unauthorized" });
  });

  test("when made public, serves only that project's document without credentials, limited per IP", async ({ server, project, ownerApi, other }) => {
    expect((await ownerApi.call("PATCH", "", { openapiPublic: true })).status).toBe(200);
    const anonymous = projectApi(server, project, "anonymous");
    const answer = await anonymous.call<OpenApiDocument>("GET", "/openapi.json");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.body.servers[0]?.url).toMatch(new RegExp(`/api/projects/${project.projectId}$`));
    expect(answer.text).not.toContain("their_secrets");
    expect(answer.text).not.toContain(other.projectId);

    // The other project stays private.
    const theirs = await projectApi(server, other, "anonymous").call("GET", "/openapi.json");
    expect(theirs.status).toBe(401);

    // Anonymous reads are counted per client IP.
    let limited = null;
    for (let read = 1; read <= PUBLIC_OPENAPI_RATE_LIMIT.limit + 1 && !limited; read++) {
      const response = await anonymous.call("GET", "/openapi.json");
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(200);
    }
    expect(limited?.body.code).toBe("rate_limited");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    // Callers with a key are not counted against the anonymous limit.
    const keyed = await projectApi(server, project, { key: await project.keyFor(["records.read"]) }).call("GET", "/openapi.json");
    expect(keyed.status).toBe(200);

    // Switched off again, the document needs credentials again.
    expect((await ownerApi.call("PATCH", "", { openapiPublic: false })).status).toBe(200);
    expect((await anonymous.call("GET", "/openapi.json")).status).toBe(401);
  });
});
