import { describe, expect } from "vitest";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { adapterResponseClass } from "@/server/adapter-response";
import { createTestRecord, createTicketSchemas, validatedIntakeEndpoint } from "@/test/endpoint-fixtures";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";
import * as appRouterRoute from "@/app/api/projects/[projectId]/fn/[slug]/route";

/**
 * The same invocation core answers through the App Router route handler (serverless hosts: the
 * global Response) and through the production server's Node adapter (its lightweight Response).
 */
/** The owner's client, on a project with the tickets schema, one open ticket and the validated intake endpoint. */
const it = routeTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  await createTicketSchemas(project.projectId);
  await createTestRecord(project.projectId, "tickets", { title: "Broken login", status: "open" });
  await createEndpoint({ projectId: project.projectId, input: validatedIntakeEndpoint });
  return ownerApi;
});

const context = { params: Promise.resolve({}) };

function viaRouteHandler(api: ProjectApi, body: string): Promise<Response> {
  const request = new Request(`http://localhost/api/projects/${api.projectId}/fn/${validatedIntakeEndpoint.slug}`, { method: "POST", body });
  return (appRouterRoute.POST as (request: Request, context: unknown) => Promise<Response>)(request, context);
}

function viaServer(api: ProjectApi, body: string): Promise<Response> {
  return api.invoke(validatedIntakeEndpoint.slug, { method: "POST", body });
}

describe("the invocation core behind both adapters", () => {
  it("answers alike: a completed run, a condition's stop and a bad body", async ({ api }) => {
    for (const body of ['{"status": "open"}', "{}", "not json"]) {
      const [routed, served] = await Promise.all([viaRouteHandler(api, body), viaServer(api, body)]);
      expect(routed).toBeInstanceOf(Response);
      expect(routed.status, body).toBe(served.status);
      expect(routed.headers.get("content-type")).toBe(served.headers.get("content-type"));
      expect(routed.headers.get("cache-control")).toBe(served.headers.get("cache-control"));
      const [routedBody, servedBody] = [await routed.json(), await served.json()];
      expect(routedBody, body).toEqual(servedBody);
    }
    expect((await viaServer(api, '{"status": "open"}')).headers.get("content-length")).toMatch(/^\d+$/);
  });
});

describe("adapterResponseClass", () => {
  it("hands out the adapter's Response and leaves the globals as they were", () => {
    const globalResponse = globalThis.Response;
    const globalRequest = globalThis.Request;
    const Lightweight = adapterResponseClass();
    expect(globalThis.Response).toBe(globalResponse);
    expect(globalThis.Request).toBe(globalRequest);
    expect(Lightweight).not.toBe(globalResponse);
    const answer = new Lightweight('{"ok":true}', { status: 201, headers: { "content-type": "application/json" } });
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(201);
    expect(answer.headers.get("content-type")).toBe("application/json");
  });
});
