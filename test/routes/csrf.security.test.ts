import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";

/**
 * CSRF on the cookie-authenticated management API (issue 9, item 3). The attack reproduced by hand:
 * a page on another port of the same host (same site, so the SameSite=Lax cookie is sent)
 * auto-submits an `enctype=text/plain` form whose body is JSON, creating a public endpoint that
 * serves the victim's records. The browser's headers for that request are sent here as it sends them.
 */
let server: RouteServer;
let fixture: ProjectFixture;
let sameHostOtherPort: string;

const publicEndpoint = { name: "Leak", method: "GET", slug: "leak", auth: "public", steps: [], response: { body: "{}" } };
const apiKey = { name: "stolen", permissions: ["records.read", "records.delete"] };

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture("CSRF target");
  const url = new URL(server.url);
  sameHostOtherPort = `${url.protocol}//${url.hostname}:${Number(url.port) === 65535 ? 1 : Number(url.port) + 1}`;
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function projectUrl(path: string): string {
  return `${server.url}/api/projects/${fixture.projectId}${path}`;
}

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(projectUrl(path), { method: "POST", headers: { cookie: fixture.owner.cookie, ...headers }, body: JSON.stringify(body) });
}

async function listed(path: string): Promise<unknown[]> {
  const response = await fetch(projectUrl(path), { headers: { cookie: fixture.owner.cookie } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: unknown[] }).data;
}

describe("cookie-authenticated requests that change state", () => {
  it("refuses the same-site text/plain form of the report, creating nothing", async () => {
    const formHeaders = { origin: sameHostOtherPort, "sec-fetch-site": "same-site", "content-type": "text/plain" };
    const endpoint = await post("/endpoints", publicEndpoint, formHeaders);
    const key = await post("/api-keys", apiKey, formHeaders);
    expect(endpoint.status).toBe(403);
    expect(key.status).toBe(403);
    expect(await listed("/endpoints")).toEqual([]);
    expect(await listed("/api-keys")).toEqual([]);
  });

  it.each([
    ["a foreign Origin", { origin: "http://evil.example" }],
    ["a same-host Origin on another port", { origin: "SAME_HOST_OTHER_PORT" }],
    ["the opaque Origin of a sandboxed page", { origin: "null" }],
    ["no Origin and a cross-site fetch", { "sec-fetch-site": "cross-site" }],
    ["no Origin and a same-site fetch from another origin", { "sec-fetch-site": "same-site" }],
  ])("refuses JSON bodies with %s", async (_, headers: Record<string, string>) => {
    const sent: Record<string, string> = { ...headers, "content-type": "application/json" };
    if (headers.origin === "SAME_HOST_OTHER_PORT") sent.origin = sameHostOtherPort;
    const response = await post("/api-keys", apiKey, sent);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/refused/) as unknown, code: "forbidden" });
    expect(await listed("/api-keys")).toEqual([]);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", ""])("refuses a body sent as %j even from the dashboard's origin", async (contentType) => {
    const headers: Record<string, string> = { origin: server.url, "sec-fetch-site": "same-origin" };
    if (contentType) headers["content-type"] = contentType;
    const response = await fetch(projectUrl("/endpoints"), {
      method: "POST",
      headers: { cookie: fixture.owner.cookie, ...headers },
      body: new TextEncoder().encode(JSON.stringify(publicEndpoint)),
    });
    expect(response.status).toBe(415);
    expect(await listed("/endpoints")).toEqual([]);
  });

  it("refuses DELETE and PATCH from a foreign origin as well", async () => {
    const created = await post("/api-keys", { name: "kept", permissions: ["records.read"] }, { origin: server.url, "content-type": "application/json" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const deleted = await fetch(projectUrl(`/api-keys/${id}`), { method: "DELETE", headers: { cookie: fixture.owner.cookie, origin: "http://evil.example" } });
    expect(deleted.status).toBe(403);
    const renamed = await fetch(projectUrl(""), {
      method: "PATCH",
      headers: { cookie: fixture.owner.cookie, origin: "http://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ name: "Owned" }),
    });
    expect(renamed.status).toBe(403);
    expect(await listed("/api-keys")).toMatchObject([{ id, revokedAt: null }]);
  });

  it("accepts the dashboard's own origin, a same-origin fetch, and a client that sends neither header", async () => {
    const fromOrigin = await post("/endpoints", { ...publicEndpoint, slug: "from-origin" }, { origin: server.url, "content-type": "application/json" });
    const fromFetchMetadata = await post("/endpoints", { ...publicEndpoint, slug: "from-metadata" }, { "sec-fetch-site": "same-origin", "content-type": "application/json" });
    const fromScript = await post("/endpoints", { ...publicEndpoint, slug: "from-script" }, { "content-type": "application/json; charset=utf-8" });
    expect([fromOrigin.status, fromFetchMetadata.status, fromScript.status]).toEqual([201, 201, 201]);
  });

  it("leaves reads alone: a GET from a foreign origin still answers (CORS keeps its body from the page)", async () => {
    const response = await fetch(projectUrl("/endpoints"), { headers: { cookie: fixture.owner.cookie, origin: "http://evil.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("API-key calls", () => {
  it("are unaffected by Origin and content type: the key is an explicit credential", async () => {
    const key = await fixture.keyFor(["endpoints.create", "endpoints.read"]);
    const response = await fetch(projectUrl("/endpoints"), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, origin: "http://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      body: JSON.stringify({ ...publicEndpoint, slug: "by-key" }),
    });
    expect(response.status).toBe(201);
  });
});
