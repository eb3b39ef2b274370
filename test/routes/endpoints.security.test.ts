import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { createProjectFixture, createRevokedKey } from "@/test/fixtures";
import { externalRouteTest } from "@/test/support/route-test";

/** The client with a key for the endpoints API, on a project with a keyed, public, origin-limited and echoing endpoint. */
const it = externalRouteTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  const api = ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.create", "endpoints.read", "endpoints.update"]) } });
  const definitions = [
    { name: "Keyed", method: "GET", slug: "keyed", auth: "api_key", response: { body: '{"ok": true}' } },
    { name: "Public", method: "GET", slug: "public", response: { body: '{"ok": true}' } },
    { name: "Public two", method: "GET", slug: "public-two", response: { body: '{"ok": true}' } },
    { name: "Shop only", method: "POST", slug: "shop", allowedOrigins: ["https://shop.example"], response: { body: '{"ok": true}' } },
    { name: "Anyone", method: "GET", slug: "anyone", allowedOrigins: ["*"], response: { body: '{"ok": true}' } },
    { name: "Echo", method: "POST", slug: "echo", response: { body: '{"name": "{{body.name}}", "note": "{{body.note}}"}' } },
  ];
  for (const definition of definitions) {
    const response = await api.request("POST", "/endpoints", definition);
    expect(response.status, await response.clone().text()).toBe(201);
  }
  return api;
});

describe("api_key endpoints", () => {
  it("refuse missing, malformed, revoked and other projects' keys with 401, keys without endpoints.invoke with 403", async ({ project, api }) => {
    const invokeKey = await project.keyFor(["endpoints.invoke"]);
    const readOnly = await project.keyFor(["endpoints.read"]);
    const revoked = await createRevokedKey(project.projectId, ["endpoints.invoke"]);
    const otherKey = await (await createProjectFixture("Other")).keyFor(["endpoints.invoke"]);
    const cases: Array<[string | null, number]> = [
      [null, 401],
      ["fpk_garbage", 401],
      [revoked, 401],
      [otherKey, 401],
      [readOnly, 403],
      [invokeKey, 200],
    ];
    for (const [key, status] of cases) {
      const response = await api.invoke("keyed", key ? { headers: { authorization: `Bearer ${key}` } } : {});
      expect(response.status, String(key)).toBe(status);
      if (status === 401) expect(response.headers.get("www-authenticate")).toBe("Bearer");
    }
    const ok = await api.invoke("keyed", { headers: { authorization: `Bearer ${invokeKey}` } });
    expect(ok.headers.get("x-ratelimit-limit")).toBe("300");
  });
});

describe("rate limits", () => {
  it("allow 60 public calls a minute per client and endpoint, then 429 with Retry-After, whatever X-Forwarded-For claims", async ({ api }) => {
    // A sliding window weighs the previous minute's count down as time passes, so a run that
    // crosses a minute boundary may see a few extra calls pass; never fewer than 60.
    let allowed = 0;
    let limited: Response | null = null;
    for (let i = 0; i < 150 && !limited; i++) {
      const response = await api.invoke("public", { headers: { "x-forwarded-for": `203.0.113.${i % 250}` } });
      if (response.status === 429) limited = response;
      else {
        expect(response.status).toBe(200);
        expect(Number(response.headers.get("x-ratelimit-remaining"))).toBeLessThan(60);
        allowed++;
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(allowed).toBeLessThan(120);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await limited!.json()).toEqual({ error: "rate limit exceeded" });
    // Another endpoint has its own budget.
    expect((await api.invoke("public-two")).status).toBe(200);
  });
});

describe("CORS", () => {
  it("grants listed origins only; server-to-server calls are unaffected", async ({ api }) => {
    const allowed = await api.invoke("shop", { method: "POST", headers: { origin: "https://shop.example" }, body: "{}" });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(allowed.headers.get("vary")).toContain("origin");

    const refused = await api.invoke("shop", { method: "POST", headers: { origin: "https://evil.example" }, body: "{}" });
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();

    const serverToServer = await api.invoke("shop", { method: "POST", body: "{}" });
    expect(serverToServer.status).toBe(200);
    expect(serverToServer.headers.get("access-control-allow-origin")).toBeNull();

    const noOrigins = await api.invoke("public-two", { headers: { origin: "https://shop.example" } });
    expect(noOrigins.headers.get("access-control-allow-origin")).toBeNull();

    const anyone = await api.invoke("anyone", { headers: { origin: "https://whoever.example" } });
    expect(anyone.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers preflights from the endpoint's settings", async ({ api }) => {
    const preflight = await api.invoke("shop", {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-custom" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-custom");

    const otherOrigin = await api.invoke("shop", { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    expect(otherOrigin.headers.get("access-control-allow-origin")).toBeNull();
    const wrongMethod = await api.invoke("shop", { method: "OPTIONS", headers: { origin: "https://shop.example", "access-control-request-method": "DELETE" } });
    expect(wrongMethod.status).toBe(404);
  });
});

describe("templates and outbound calls cannot be turned against the platform", () => {
  it("never evaluates caller data as a template and escapes it inside JSON strings", async ({ api }) => {
    const response = await api.invoke("echo", {
      method: "POST",
      body: JSON.stringify({ name: '", "admin": true, "x": "', note: "{{body.name}} {{steps}}" }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: '", "admin": true, "x": "', note: "{{body.name}} {{steps}}" });
  });

  it("refuses an HTTP step aimed at a loopback service, before any connection", async ({ api }) => {
    let connections = 0;
    const target: Server = createServer((_req, res) => res.end("secret"));
    target.on("connection", () => connections++);
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const { port } = target.address() as AddressInfo;
    try {
      const created = await api.request("POST", "/endpoints", {
        name: "SSRF",
        method: "GET",
        slug: "ssrf",
        steps: [{ type: "http", name: "call", method: "GET", url: `http://127.0.0.1:${port}/` }],
        response: { body: "{{steps.call}}" },
      });
      expect(created.status).toBe(201);
      const response = await api.invoke("ssrf");
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain("secret");
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
