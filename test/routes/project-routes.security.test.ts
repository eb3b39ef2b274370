import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { createProjectFixture, createRevokedKey, createTestUser, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";

/**
 * Every project API route behind the wrapper, every method: no credentials, a revoked key, a key of
 * another project, a key without the route's permission, and a signed-in non-member.
 * Invocation routes (/fn/), end-user auth routes (/auth/) and the form intake (/forms/) are public
 * by design (a site's visitors call them) and have their own auth modes and security tests.
 */
let server: RouteServer;
let project: ProjectFixture;
let other: ProjectFixture;
let revokedKey: string;
let otherProjectKey: string;
let invokeOnlyKey: string;
let strangerCookie: string;

beforeAll(async () => {
  server = await startRouteServer();
  project = await createProjectFixture("Secured");
  other = await createProjectFixture("Other");
  revokedKey = await createRevokedKey(project.projectId, [...PERMISSIONS]);
  otherProjectKey = await other.keyFor([...PERMISSIONS]);
  invokeOnlyKey = await project.keyFor(["endpoints.invoke"]);
  strangerCookie = (await createTestUser("stranger")).cookie;
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function projectRoutes() {
  return server.routes.filter(
    (route) =>
      route.pattern.startsWith("/api/projects/[projectId]") &&
      !route.pattern.includes("/fn/") &&
      !route.pattern.startsWith("/api/projects/[projectId]/auth/") &&
      !route.pattern.startsWith("/api/projects/[projectId]/forms/"),
  );
}

function concretePath(pattern: string, projectId: string): string {
  return pattern
    .replace("[projectId]", projectId)
    .replace(/\[\.\.\.\w+\]/g, "x")
    .replace(/\[(\w+)\]/g, (_, name: string) => `unknown-${name}`);
}

async function call(method: string, pattern: string, headers: Record<string, string>, projectId = project.projectId): Promise<Response> {
  const hasBody = !["GET", "HEAD", "DELETE", "OPTIONS"].includes(method);
  return fetch(`${server.url}${concretePath(pattern, projectId)}`, {
    method,
    headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...headers },
    body: hasBody ? "{}" : undefined,
  });
}

describe("every project route refuses callers it must refuse", () => {
  it("finds the project routes to test", () => {
    expect(projectRoutes().length).toBeGreaterThan(0);
    // Routes with a static segment beside a dynamic one are found too (the import wins over :recordId).
    expect(projectRoutes().map((route) => `${route.methods.join(",")} ${route.pattern}`)).toContain("POST /api/projects/[projectId]/records/[schema]/import");
    // The OpenAPI document is private unless its project says otherwise (openapi.security.test.ts).
    expect(projectRoutes().map((route) => `${route.methods.join(",")} ${route.pattern}`)).toContain("GET /api/projects/[projectId]/openapi.json");
  });

  it("answers 401 without credentials", async () => {
    for (const route of projectRoutes()) {
      for (const method of route.methods) {
        const response = await call(method, route.pattern, {});
        expect(response.status, `${method} ${route.pattern}`).toBe(401);
        expect(await response.json()).toEqual({ error: "authentication required", code: "unauthorized" });
      }
    }
  });

  it("answers 401 with a revoked key and with a malformed key", async () => {
    for (const route of projectRoutes()) {
      for (const method of route.methods) {
        for (const key of [revokedKey, "fpk_notarealkey", revokedKey.slice(0, -1) + (revokedKey.endsWith("a") ? "b" : "a")]) {
          const response = await call(method, route.pattern, { authorization: `Bearer ${key}` });
          expect(response.status, `${method} ${route.pattern}`).toBe(401);
        }
      }
    }
  });

  it("answers 404 with a key of another project, revealing nothing", async () => {
    for (const route of projectRoutes()) {
      for (const method of route.methods) {
        const response = await call(method, route.pattern, { authorization: `Bearer ${otherProjectKey}` });
        expect(response.status, `${method} ${route.pattern}`).toBe(404);
        expect(await response.json()).toEqual({ error: "project not found", code: "not_found" });
      }
    }
  });

  it("answers the same 404 for a project that does not exist", async () => {
    for (const route of projectRoutes()) {
      for (const method of route.methods) {
        const response = await call(method, route.pattern, { authorization: `Bearer ${otherProjectKey}` }, "prj_doesnotexist");
        expect(response.status, `${method} ${route.pattern}`).toBe(404);
        expect(await response.json()).toEqual({ error: "project not found", code: "not_found" });
      }
    }
  });

  it("answers 403 with a key that lacks the route's permission", async () => {
    for (const route of projectRoutes()) {
      for (const method of route.methods) {
        const response = await call(method, route.pattern, { authorization: `Bearer ${invokeOnlyKey}` });
        expect(response.status, `${method} ${route.pattern}`).toBe(403);
      }
    }
  });

  it("answers 404 to a signed-in user who is not a member", async () => {
    for (const route of projectRoutes()) {
      for (const method of route.methods) {
        const response = await call(method, route.pattern, { cookie: strangerCookie });
        expect(response.status, `${method} ${route.pattern}`).toBe(404);
      }
    }
  });
});
