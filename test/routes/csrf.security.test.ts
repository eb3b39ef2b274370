import { describe, expect } from "vitest";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * CSRF on the cookie-authenticated management API (issue 9, item 3). The attack reproduced by hand:
 * a page on another port of the same host (same site, so the SameSite=Lax cookie is sent)
 * auto-submits an `enctype=text/plain` form whose body is JSON, creating a public endpoint that
 * serves the victim's records. The browser's headers for that request are sent here as it sends them.
 */
const it = routeTest.extend("sameHostOtherPort", { scope: "file" }, ({ server }) => {
  const url = new URL(server.url);
  return `${url.protocol}//${url.hostname}:${Number(url.port) === 65535 ? 1 : Number(url.port) + 1}`;
});

const publicEndpoint = { name: "Leak", method: "GET", slug: "leak", auth: "public", steps: [], response: { body: "{}" } };
const apiKey = { name: "stolen", permissions: ["records.read", "records.delete"] };

/** A POST as the owner's browser sends it: the cookie, the JSON body, and exactly the headers given. */
function post(api: ProjectApi, path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return api.fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
}

async function listed(api: ProjectApi, path: string): Promise<unknown[]> {
  const answer = await api.call<{ data: unknown[] }>("GET", path);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe("cookie-authenticated requests that change state", () => {
  it("refuses the same-site text/plain form of the report, creating nothing", async ({ ownerApi, sameHostOtherPort }) => {
    const formHeaders = { origin: sameHostOtherPort, "sec-fetch-site": "same-site", "content-type": "text/plain" };
    const endpoint = await post(ownerApi, "/endpoints", publicEndpoint, formHeaders);
    const key = await post(ownerApi, "/api-keys", apiKey, formHeaders);
    expect(endpoint.status).toBe(403);
    expect(key.status).toBe(403);
    expect(await listed(ownerApi, "/endpoints")).toEqual([]);
    expect(await listed(ownerApi, "/api-keys")).toEqual([]);
  });

  it.for([
    ["a foreign Origin", { origin: "http://evil.example" }],
    ["a same-host Origin on another port", { origin: "SAME_HOST_OTHER_PORT" }],
    ["the opaque Origin of a sandboxed page", { origin: "null" }],
    ["no Origin and a cross-site fetch", { "sec-fetch-site": "cross-site" }],
    ["no Origin and a same-site fetch from another origin", { "sec-fetch-site": "same-site" }],
  ] as Array<[string, Record<string, string>]>)("refuses JSON bodies with %s", async ([, headers], { ownerApi, sameHostOtherPort }) => {
    const sent: Record<string, string> = { ...headers, "content-type": "application/json" };
    if (headers.origin === "SAME_HOST_OTHER_PORT") sent.origin = sameHostOtherPort;
    const response = await post(ownerApi, "/api-keys", apiKey, sent);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/refused/) as unknown, code: "forbidden" });
    expect(await listed(ownerApi, "/api-keys")).toEqual([]);
  });

  it.for(["text/plain", "application/x-www-form-urlencoded", ""])("refuses a body sent as %j even from the dashboard's origin", async (contentType, { server, ownerApi }) => {
    const headers: Record<string, string> = { origin: server.url, "sec-fetch-site": "same-origin" };
    if (contentType) headers["content-type"] = contentType;
    const response = await ownerApi.fetch("/endpoints", { method: "POST", headers, body: new TextEncoder().encode(JSON.stringify(publicEndpoint)) });
    expect(response.status).toBe(415);
    expect(await listed(ownerApi, "/endpoints")).toEqual([]);
  });

  it("refuses DELETE and PATCH from a foreign origin as well", async ({ server, ownerApi }) => {
    const created = await post(ownerApi, "/api-keys", { name: "kept", permissions: ["records.read"] }, { origin: server.url, "content-type": "application/json" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const deleted = await ownerApi.fetch(`/api-keys/${id}`, { method: "DELETE", headers: { origin: "http://evil.example" } });
    expect(deleted.status).toBe(403);
    const renamed = await ownerApi.fetch("", {
      method: "PATCH",
      headers: { origin: "http://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ name: "Owned" }),
    });
    expect(renamed.status).toBe(403);
    expect(await listed(ownerApi, "/api-keys")).toMatchObject([{ id, revokedAt: null }]);
  });

  it("accepts the dashboard's own origin, a same-origin fetch, and a client that sends neither header", async ({ server, ownerApi }) => {
    const fromOrigin = await post(ownerApi, "/endpoints", { ...publicEndpoint, slug: "from-origin" }, { origin: server.url, "content-type": "application/json" });
    const fromFetchMetadata = await post(
      ownerApi,
      "/endpoints",
      { ...publicEndpoint, slug: "from-metadata" },
      { "sec-fetch-site": "same-origin", "content-type": "application/json" },
    );
    const fromScript = await post(ownerApi, "/endpoints", { ...publicEndpoint, slug: "from-script" }, { "content-type": "application/json; charset=utf-8" });
    expect([fromOrigin.status, fromFetchMetadata.status, fromScript.status]).toEqual([201, 201, 201]);
  });

  it("leaves reads alone: a GET from a foreign origin still answers (CORS keeps its body from the page)", async ({ ownerApi }) => {
    const response = await ownerApi.fetch("/endpoints", { headers: { origin: "http://evil.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("API-key calls", () => {
  it("are unaffected by Origin and content type: the key is an explicit credential", async ({ ownerApi, project }) => {
    const keyApi = ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.create", "endpoints.read"]) } });
    const response = await post(
      keyApi,
      "/endpoints",
      { ...publicEndpoint, slug: "by-key" },
      { origin: "http://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" },
    );
    expect(response.status).toBe(201);
  });
});
