import { describe, expect } from "vitest";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { createProjectFixture, createRevokedKey, createTestUser } from "@/test/fixtures";
import type { RouteServer } from "@/test/http-harness";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Every project API route behind the wrapper, every method: no credentials, a revoked key, a key of
 * another project, a key without the route's permission, and a signed-in non-member.
 * Invocation routes (/fn/), end-user auth routes (/auth/) and the form intake (/forms/) are public
 * by design (a site's visitors call them) and have their own auth modes and security tests.
 */
const PROJECT_ROUTES = "/api/projects/[projectId]";

const it = routeTest
  /** The callers every route must refuse: keys revoked, of another project or without the permission, and a stranger's session. */
  .extend("callers", { scope: "file" }, async ({ project }) => {
    const other = await createProjectFixture("Other");
    return {
      revokedKey: await createRevokedKey(project.projectId, [...PERMISSIONS]),
      otherProjectKey: await other.keyFor([...PERMISSIONS]),
      invokeOnlyKey: await project.keyFor(["endpoints.invoke"]),
      strangerCookie: (await createTestUser("stranger")).cookie,
    };
  });

function projectRoutes(server: RouteServer) {
  return server.routes.filter(
    (route) =>
      route.pattern.startsWith(PROJECT_ROUTES) &&
      !route.pattern.includes("/fn/") &&
      !route.pattern.startsWith(`${PROJECT_ROUTES}/auth/`) &&
      !route.pattern.startsWith(`${PROJECT_ROUTES}/forms/`),
  );
}

/** A route's method called through `api` on a path under the project (ids that match nothing), with `{}` as the body where the method takes one. */
function callRoute(api: ProjectApi, method: string, pattern: string): Promise<Response> {
  const path = pattern
    .slice(PROJECT_ROUTES.length)
    .replace(/\[\.\.\.\w+\]/g, "x")
    .replace(/\[(\w+)\]/g, (_, name: string) => `unknown-${name}`);
  const hasBody = !["GET", "HEAD", "DELETE", "OPTIONS"].includes(method);
  return api.fetch(path, { method, headers: hasBody ? { "content-type": "application/json" } : {}, body: hasBody ? "{}" : undefined });
}

describe("every project route refuses callers it must refuse", () => {
  it("finds the project routes to test", ({ server }) => {
    expect(projectRoutes(server).length).toBeGreaterThan(0);
    // Routes with a static segment beside a dynamic one are found too (the import wins over :recordId).
    expect(projectRoutes(server).map((route) => `${route.methods.join(",")} ${route.pattern}`)).toContain("POST /api/projects/[projectId]/records/[schema]/import");
    // The OpenAPI document is private unless its project says otherwise (openapi.security.test.ts).
    expect(projectRoutes(server).map((route) => `${route.methods.join(",")} ${route.pattern}`)).toContain("GET /api/projects/[projectId]/openapi.json");
  });

  it("answers 401 without credentials", async ({ server, ownerApi }) => {
    const anonymous = ownerApi.with({ credentials: "anonymous" });
    for (const route of projectRoutes(server)) {
      for (const method of route.methods) {
        const response = await callRoute(anonymous, method, route.pattern);
        expect(response.status, `${method} ${route.pattern}`).toBe(401);
        expect(await response.json()).toEqual({ error: "authentication required", code: "unauthorized" });
      }
    }
  });

  it("answers 401 with a revoked key and with a malformed key", async ({ server, ownerApi, callers: { revokedKey } }) => {
    for (const route of projectRoutes(server)) {
      for (const method of route.methods) {
        for (const key of [revokedKey, "fpk_notarealkey", revokedKey.slice(0, -1) + (revokedKey.endsWith("a") ? "b" : "a")]) {
          const response = await callRoute(ownerApi.with({ credentials: { key } }), method, route.pattern);
          expect(response.status, `${method} ${route.pattern}`).toBe(401);
        }
      }
    }
  });

  it("answers 404 with a key of another project, revealing nothing", async ({ server, ownerApi, callers }) => {
    const otherProject = ownerApi.with({ credentials: { key: callers.otherProjectKey } });
    for (const route of projectRoutes(server)) {
      for (const method of route.methods) {
        const response = await callRoute(otherProject, method, route.pattern);
        expect(response.status, `${method} ${route.pattern}`).toBe(404);
        expect(await response.json()).toEqual({ error: "project not found", code: "not_found" });
      }
    }
  });

  it("answers the same 404 for a project that does not exist", async ({ server, ownerApi, callers }) => {
    const nowhere = ownerApi.with({ projectId: "prj_doesnotexist", credentials: { key: callers.otherProjectKey } });
    for (const route of projectRoutes(server)) {
      for (const method of route.methods) {
        const response = await callRoute(nowhere, method, route.pattern);
        expect(response.status, `${method} ${route.pattern}`).toBe(404);
        expect(await response.json()).toEqual({ error: "project not found", code: "not_found" });
      }
    }
  });

  it("answers 403 with a key that lacks the route's permission", async ({ server, ownerApi, callers }) => {
    const invokeOnly = ownerApi.with({ credentials: { key: callers.invokeOnlyKey } });
    for (const route of projectRoutes(server)) {
      for (const method of route.methods) {
        const response = await callRoute(invokeOnly, method, route.pattern);
        expect(response.status, `${method} ${route.pattern}`).toBe(403);
      }
    }
  });

  it("answers 404 to a signed-in user who is not a member", async ({ server, ownerApi, callers }) => {
    const stranger = ownerApi.with({ credentials: { cookie: callers.strangerCookie } });
    for (const route of projectRoutes(server)) {
      for (const method of route.methods) {
        const response = await callRoute(stranger, method, route.pattern);
        expect(response.status, `${method} ${route.pattern}`).toBe(404);
      }
    }
  });
});
