import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { closePlatformDb } from "@/lib/platform-db/client";
import { adapterResponseClass } from "@/server/adapter-response";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { createTestRecord, createTicketSchemas, validatedIntakeEndpoint } from "@/test/endpoint-fixtures";
import * as appRouterRoute from "@/app/api/projects/[projectId]/fn/[slug]/route";

/**
 * The same invocation core answers through the App Router route handler (serverless hosts: the
 * global Response) and through the production server's Node adapter (its lightweight Response).
 */
let server: RouteServer;
let fixture: ProjectFixture;

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture("Both adapters");
  await createTicketSchemas(fixture.projectId);
  await createTestRecord(fixture.projectId, "tickets", { title: "Broken login", status: "open" });
  await createEndpoint({ projectId: fixture.projectId, input: validatedIntakeEndpoint });
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

const context = { params: Promise.resolve({}) };

function viaRouteHandler(body: string): Promise<Response> {
  const request = new Request(`http://localhost/api/projects/${fixture.projectId}/fn/${validatedIntakeEndpoint.slug}`, { method: "POST", body });
  return (appRouterRoute.POST as (request: Request, context: unknown) => Promise<Response>)(request, context);
}

function viaServer(body: string): Promise<Response> {
  return fetch(`${server.url}/api/projects/${fixture.projectId}/fn/${validatedIntakeEndpoint.slug}`, { method: "POST", body });
}

describe("the invocation core behind both adapters", () => {
  it("answers alike: a completed run, a condition's stop and a bad body", async () => {
    for (const body of ['{"status": "open"}', "{}", "not json"]) {
      const [routed, served] = await Promise.all([viaRouteHandler(body), viaServer(body)]);
      expect(routed).toBeInstanceOf(Response);
      expect(routed.status, body).toBe(served.status);
      expect(routed.headers.get("content-type")).toBe(served.headers.get("content-type"));
      expect(routed.headers.get("cache-control")).toBe(served.headers.get("cache-control"));
      const [routedBody, servedBody] = [await routed.json(), await served.json()];
      expect(routedBody, body).toEqual(servedBody);
    }
    expect((await viaServer('{"status": "open"}')).headers.get("content-length")).toMatch(/^\d+$/);
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
