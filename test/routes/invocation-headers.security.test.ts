import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { NextRequest } from "next/server";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { ConfigError, parseConfig, resetConfigForTests } from "@/lib/config";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { invokeEndpoint } from "@/lib/endpoints/invoke/invoke-endpoint";
import { routeByOrigin } from "@/lib/http/invocation-origin";
import { API_SECURITY_HEADERS, INVOCATION_SANDBOX, dashboardContentSecurityPolicy } from "@/lib/http/security-headers";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpoints } from "@/lib/platform-db/schema";
import { adapterResponseClass } from "@/server/adapter-response";
import { trackAfterResponse } from "@/lib/http/after-response";
import { createRecordsApiHandler } from "@/server/records-api";
import { createRequestRouter } from "@/server/route-request";
import { describeInProcess, itInProcess } from "@/test/support/in-process-only";
import { projectApi } from "@/test/support/project-api";
import { externalRouteTest } from "@/test/support/route-test";
import { createTicketSchemas, validatedIntakeEndpoint } from "@/test/endpoint-fixtures";
import * as appRouterRoute from "@/app/api/projects/[projectId]/fn/[slug]/route";
import { proxy } from "@/proxy";

/**
 * Security issue 9, items 1 and 7: what owners publish never runs with the dashboard's rights. Every
 * invocation answer is sandboxed into an opaque origin, owners cannot replace the platform's security
 * headers, a separate invocation origin serves only the public paths, and the dashboard's own pages
 * carry a nonce-based policy.
 */
const TAKEOVER_PAGE = '<!doctype html><title>Offer</title><script>fetch("/api/projects/prj_victim/api-keys", {method: "POST", credentials: "include"})</script>';

const it = externalRouteTest
  /** A key for the endpoints API. */
  .extend("manageKey", { scope: "file" }, ({ project }) => project.keyFor(["endpoints.create", "endpoints.read", "endpoints.update"]))
  /** The project's endpoints, made before the file's first test. */
  .extend("projectEndpoints", { scope: "file", auto: true }, async ({ server, project, manageKey }) => {
    const api = projectApi(server, project, { key: manageKey });
    await createTicketSchemas(project.projectId);
    await createEndpoint({ projectId: project.projectId, input: validatedIntakeEndpoint });
    const definitions = [
      { name: "Page", method: "GET", slug: "page", response: { contentType: "text/html", body: TAKEOVER_PAGE, headers: { "X-Owner": "kept" } } },
      { name: "Cached", method: "GET", slug: "cached", cacheSeconds: 60, response: { body: '{"cached": true}' } },
      { name: "Keyed", method: "GET", slug: "keyed", auth: "api_key", response: { body: '{"ok": true}' } },
      { name: "Shop", method: "POST", slug: "shop", allowedOrigins: ["https://shop.example"], response: { body: '{"ok": true}' } },
      { name: "Legacy", method: "GET", slug: "legacy", response: { contentType: "text/html", body: "<p>old</p>" } },
      { name: "Broken", method: "GET", slug: "broken", response: { body: "{}" } },
    ];
    for (const definition of definitions) {
      const response = await api.request("POST", "/endpoints", definition);
      expect(response.status, await response.clone().text()).toBe(201);
    }
    // Rows saved before these names were reserved, and a flow that no longer parses: written straight
    // to the platform database, before the first call loads the project.
    const db = await getPlatformDb();
    const rows = await db.select().from(endpoints).where(eq(endpoints.projectId, project.projectId));
    for (const row of rows) {
      const definition = row.definition as { response: { headers: Record<string, string> }; steps: unknown[] };
      if (row.slug === "legacy") {
        definition.response.headers = {
          "Content-Security-Policy": "sandbox allow-scripts allow-same-origin",
          "x-content-type-options": "sniff",
          "Clear-Site-Data": '"cookies"',
          "x-owner": "kept",
        };
      } else if (row.slug === "broken") definition.steps = [{ type: "no-such-step" }];
      else continue;
      await db.update(endpoints).set({ definition }).where(eq(endpoints.id, row.id));
    }
  });

function expectSandboxed(response: Response, label: string): void {
  const policy = response.headers.get("content-security-policy");
  expect(policy, label).toBe(INVOCATION_SANDBOX);
  expect(policy, label).toMatch(/^sandbox /);
  expect(policy, label).not.toContain("allow-same-origin");
  expect(response.headers.get("x-content-type-options"), label).toBe("nosniff");
  // None of the dashboard's headers.
  expect(response.headers.get("x-frame-options"), label).toBeNull();
  expect(response.headers.get("permissions-policy"), label).toBeNull();
  expect(response.headers.get("set-cookie"), label).toBeNull();
  expect(response.headers.get("clear-site-data"), label).toBeNull();
}

interface AnswerCase {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
}

function answerCases(projectId: string): AnswerCase[] {
  const base = `/api/projects/${projectId}/fn`;
  return [
    { label: "an HTML page", method: "GET", path: `${base}/page`, status: 200 },
    { label: "a completed flow", method: "POST", path: `${base}/${validatedIntakeEndpoint.slug}`, body: '{"status": "open"}', status: 200 },
    { label: "a condition's stop", method: "POST", path: `${base}/${validatedIntakeEndpoint.slug}`, body: "{}", status: 422 },
    { label: "a body that is not JSON", method: "POST", path: `${base}/${validatedIntakeEndpoint.slug}`, body: "not json", status: 400 },
    { label: "a cached answer", method: "GET", path: `${base}/cached?x=1`, status: 200 },
    { label: "a missing API key", method: "GET", path: `${base}/keyed`, status: 401 },
    { label: "a flow that fails", method: "GET", path: `${base}/broken`, status: 500 },
    { label: "an unknown slug", method: "GET", path: `${base}/nothing-here`, status: 404 },
    { label: "an unknown project", method: "GET", path: "/api/projects/prj_nothing/fn/page", status: 404 },
    { label: "malformed percent-encoding", method: "GET", path: `${base}/%E0%A4%A`, status: 404 },
    { label: "an unknown method", method: "DELETE", path: `${base}/page`, status: 404 },
    {
      label: "a preflight",
      method: "OPTIONS",
      path: `${base}/shop`,
      headers: { origin: "https://shop.example", "access-control-request-method": "POST" },
      status: 204,
    },
    { label: "a preflight for no endpoint", method: "OPTIONS", path: `${base}/shop`, headers: { "access-control-request-method": "PATCH" }, status: 404 },
  ];
}

function viaServer(server: { url: string }, answer: AnswerCase): Promise<Response> {
  return fetch(`${server.url}${answer.path}`, { method: answer.method, headers: answer.headers, body: answer.body });
}

function viaRouteHandler(answer: AnswerCase): Promise<Response> {
  const handler = appRouterRoute[answer.method as "GET"] as (request: Request, context: unknown) => Promise<Response>;
  const request = new Request(`http://localhost${answer.path}`, { method: answer.method, headers: answer.headers, body: answer.body });
  return handler(request, { params: Promise.resolve({}) });
}

describe("every invocation answer is sandboxed (item 1)", () => {
  it("on the production server's path: successes, errors, 404s, preflights, cache misses and hits", async ({ server, project }) => {
    for (const answer of answerCases(project.projectId)) {
      const response = await viaServer(server, answer);
      expect(response.status, answer.label).toBe(answer.status);
      expectSandboxed(response, answer.label);
    }
    const hit = await fetch(`${server.url}/api/projects/${project.projectId}/fn/cached?x=1`);
    expect(hit.headers.get("x-cache")).toBe("hit");
    expectSandboxed(hit, "a cache hit");
  });

  itInProcess(
    "calls the route handler in this process; the test above makes the same calls over HTTP",
    "through the App Router route handler alike",
    async ({ project }) => {
      for (const answer of answerCases(project.projectId)) {
        const response = await viaRouteHandler(answer);
        expect(response.status, answer.label).toBe(answer.status);
        expectSandboxed(response, answer.label);
      }
    },
    it,
  );

  it("serves an owner's HTML page as HTML, with the owner's own headers, in the sandbox", async ({ server, project }) => {
    const response = await fetch(`${server.url}/api/projects/${project.projectId}/fn/page`);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-owner")).toBe("kept");
    expect(await response.text()).toContain("<script>");
    expectSandboxed(response, "page");
  });

  it("lets no header stored before the names were reserved replace or weaken the platform's", async ({ server, project }) => {
    const overHttp = () => fetch(`${server.url}/api/projects/${project.projectId}/fn/legacy`);
    const inProcess = () => viaRouteHandler({ label: "legacy", method: "GET", path: `/api/projects/${project.projectId}/fn/legacy`, status: 200 });
    // Against an external server (ROUTE_TEST_BASE_URL) the route handler runs there, over HTTP.
    for (const respond of server.external ? [overHttp] : [overHttp, inProcess]) {
      const response = await respond();
      expect(response.status).toBe(200);
      expectSandboxed(response, "legacy");
      expect(response.headers.get("x-owner")).toBe("kept");
    }
  });
});

describe("owners cannot set the platform's security headers (item 1)", () => {
  it("refuses to save an endpoint that sets one, in any case, with 422 naming the header", async ({ server, project, manageKey }) => {
    const names = [
      "content-security-policy",
      "Content-Security-Policy",
      "CONTENT-SECURITY-POLICY-REPORT-ONLY",
      "X-Content-Type-Options",
      "x-frame-options",
      "Strict-Transport-Security",
      "Clear-Site-Data",
      "Permissions-Policy",
      "Service-Worker-Allowed",
      "NEL",
      "Report-To",
    ];
    for (const name of names) {
      const response = await projectApi(server, project, { key: manageKey }).fetch("/endpoints", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "Unsafe",
          method: "GET",
          slug: "unsafe",
          response: { contentType: "text/html", body: "<p>hi</p>", headers: { [name]: "sandbox allow-same-origin" } },
        }),
      });
      expect(response.status, name).toBe(422);
      const body = (await response.json()) as { issues: Array<{ path: string; message: string }> };
      expect(body.issues, name).toContainEqual({ path: `response.headers.${name}`, message: `the header ${name.toLowerCase()} cannot be set by an endpoint` });
    }
  });
});

describe("INVOCATION_URL (item 1)", () => {
  itInProcess("parses configuration in this process, no server involved", "is validated: an origin only, on another host than the dashboard's", () => {
    expect(parseConfig({ INVOCATION_URL: "https://fn.flowpoint.example", APP_URL: "https://app.flowpoint.example" }).INVOCATION_URL).toBe("https://fn.flowpoint.example");
    expect(parseConfig({ INVOCATION_URL: "http://127.0.0.1:3100/", NEXTAUTH_URL: "http://localhost:3100" }).INVOCATION_URL).toBe("http://127.0.0.1:3100/");
    for (const env of [
      { INVOCATION_URL: "https://fn.flowpoint.example/api" },
      { INVOCATION_URL: "ftp://fn.flowpoint.example" },
      { INVOCATION_URL: "not a url" },
      { INVOCATION_URL: "https://app.flowpoint.example", APP_URL: "https://app.flowpoint.example/" },
      { INVOCATION_URL: "http://localhost:3000", NEXTAUTH_URL: "http://localhost:3000" },
    ]) {
      expect(() => parseConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => parseConfig(env)).toThrow(/INVOCATION_URL/);
    }
  });

  itInProcess("a function of this process, no server involved", "decides by Host: only public paths on the invocation origin, everything as before elsewhere", () => {
    const fn = "fn.flowpoint.example";
    const served = [
      "/api/projects/prj_1/fn/page",
      "/api/projects/prj_1/fn/page/",
      "/api/projects/prj_1/forms/contact",
      "/api/projects/prj_1/auth/users/login",
      "/api/projects/prj_1/auth/users/verify-email",
      "/auth/prj_1/users/verify",
      "/auth/prj_1/users/reset-password",
      "/_next/static/chunks/main.js",
    ];
    for (const path of served) expect(routeByOrigin(fn, path, fn), path).toBe("invocation_origin");
    const refused = [
      "/",
      "/sign-in",
      "/workspaces",
      "/projects/prj_1",
      "/api/auth/session",
      "/api/auth/callback/credentials",
      "/api/projects/prj_1",
      "/api/projects/prj_1/api-keys",
      "/api/projects/prj_1/endpoints",
      "/api/projects/prj_1/records/tickets",
      "/api/projects/prj_1/files/file_1",
      "/api/health",
      "/_next/image",
      "/api/projects/prj_1/auth/users/../../api-keys",
      "/api/projects/prj_1/auth/users/%2e%2e/x",
      "/auth/prj_1/users/..",
      "/api/projects/prj_1/fn/..%2f..%2fapi-keys",
    ];
    for (const path of refused) expect(routeByOrigin(fn, path, fn), path).toBe("not_found");
    // The Host header is compared without case, default port or trailing dot.
    expect(routeByOrigin("FN.flowpoint.example:443", "/workspaces", fn)).toBe("not_found");
    expect(routeByOrigin("fn.flowpoint.example.", "/workspaces", fn)).toBe("not_found");
    // The dashboard's host, a missing Host and no INVOCATION_URL: as before.
    expect(routeByOrigin("app.flowpoint.example", "/workspaces", fn)).toBe("default");
    expect(routeByOrigin(undefined, "/workspaces", fn)).toBe("default");
    expect(routeByOrigin("fn.flowpoint.example", "/workspaces", null)).toBe("default");
  });

  describeInProcess("starts the custom server's router in this process", "on the production server (server/route-request.ts) over HTTP", () => {
    let routed: Server;
    let port: number;
    const nextCalls: Array<{ url: string; cookie: string | null; rawCookie: boolean }> = [];

    beforeAll(async () => {
      const hooks = { waitUntil: trackAfterResponse, Response: adapterResponseClass() };
      const handleInvocation = getRequestListener((request: Request) => invokeEndpoint(request, hooks), { overrideGlobalObjects: false });
      // Stands in for Next's handler: records what reached it.
      const handleNext = (req: IncomingMessage, res: ServerResponse): void => {
        nextCalls.push({ url: req.url ?? "", cookie: req.headers.cookie ?? null, rawCookie: req.rawHeaders.some((name) => name.toLowerCase() === "cookie") });
        res.end("next");
      };
      // As server/start.ts serves them: the routes' JSON answers built with the adapter's Response class.
      const handleRecordsApi = getRequestListener(createRecordsApiHandler(hooks.Response), { overrideGlobalObjects: false });
      routed = createServer(createRequestRouter({ handleInvocation, handleRecordsApi, handleNext, invocationHost: "fn.flowpoint.test" }));
      await new Promise<void>((resolve) => routed.listen(0, "127.0.0.1", resolve));
      port = (routed.address() as AddressInfo).port;
    });

    afterAll(async () => {
      routed.closeAllConnections();
      await new Promise<void>((resolve) => routed.close(() => resolve()));
    });

    function send(
      host: string,
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body?: string,
    ): Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, method, path, headers: { host, cookie: "next-auth.session-token=dashboard-session", ...headers } }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        req.end(body);
      });
    }

    it("answers 404 on the invocation origin for the dashboard, next-auth and the management API, before Next", async ({ project, manageKey }) => {
      nextCalls.length = 0;
      for (const [method, path] of [
        ["GET", "/workspaces"],
        ["GET", "/api/auth/session"],
        ["POST", "/api/auth/callback/credentials"],
        ["GET", `/api/projects/${project.projectId}/api-keys`],
        ["POST", `/api/projects/${project.projectId}/api-keys`],
        ["GET", `/api/projects/${project.projectId}/auth/users/../../api-keys`],
      ] as const) {
        const answer = await send("fn.flowpoint.test", method, path);
        expect(answer.status, path).toBe(404);
        expect(answer.headers["content-security-policy"], path).toBe(INVOCATION_SANDBOX);
        expect(answer.headers["set-cookie"], path).toBeUndefined();
      }
      const keyed = await send("fn.flowpoint.test", "GET", `/api/projects/${project.projectId}/records/tickets`, { authorization: `Bearer ${manageKey}` });
      expect(keyed.status).toBe(404);
      expect(keyed.headers["content-security-policy"]).toBe(INVOCATION_SANDBOX);
      expect(nextCalls).toEqual([]);
    });

    it("serves invocations there, and the end-user auth routes and pages without the Cookie header", async ({ project }) => {
      nextCalls.length = 0;
      const page = await send("fn.flowpoint.test", "GET", `/api/projects/${project.projectId}/fn/page`);
      expect(page.status).toBe(200);
      expect(page.body).toContain("<script>");
      expect(page.headers["content-security-policy"]).toBe(INVOCATION_SANDBOX);
      expect((await send("fn.flowpoint.test", "POST", `/api/projects/${project.projectId}/auth/users/login`)).body).toBe("next");
      expect((await send("fn.flowpoint.test", "GET", `/auth/${project.projectId}/users/verify?token=t`)).body).toBe("next");
      expect(nextCalls).toEqual([
        { url: `/api/projects/${project.projectId}/auth/users/login`, cookie: null, rawCookie: false },
        { url: `/auth/${project.projectId}/users/verify?token=t`, cookie: null, rawCookie: false },
      ]);
    });

    it("serves records API calls with an API key straight from their route handlers, with the API answers' headers; the rest goes to Next", async ({ project }) => {
      nextCalls.length = 0;
      const records = `/api/projects/${project.projectId}/records/tickets`;
      const key = await project.keyFor(["records.read", "records.create", "records.update"]);
      const bearer = { authorization: `Bearer ${key}` };
      const created = await send("localhost:3000", "POST", records, { ...bearer, "content-type": "application/json" }, JSON.stringify({ title: "Fast path", status: "open" }));
      expect(created.status, created.body).toBe(201);
      const createdRecord = JSON.parse(created.body) as { id: string; title: string };
      expect(createdRecord).toMatchObject({ title: "Fast path", status: "open" });
      expect(created.headers.location).toBe(`${records}/${createdRecord.id}`);
      const list = await send("localhost:3000", "GET", `${records}?perPage=5`, bearer);
      expect(list.status, list.body).toBe(200);
      expect(JSON.parse(list.body)).toMatchObject({ meta: { page: 1, perPage: 5 } });
      const read = await send("localhost:3000", "GET", `${records}/${createdRecord.id}`, bearer);
      expect(JSON.parse(read.body)).toEqual(createdRecord);
      const updated = await send(
        "localhost:3000",
        "PATCH",
        `${records}/${createdRecord.id}`,
        { ...bearer, "content-type": "application/json" },
        JSON.stringify({ status: "closed" }),
      );
      expect(updated.status, updated.body).toBe(200);
      expect(JSON.parse(updated.body)).toMatchObject({ id: createdRecord.id, title: "Fast path", status: "closed" });
      const one = await send("localhost:3000", "GET", `${records}/rec_missing`, bearer);
      expect(one.status).toBe(404);
      for (const answer of [created, list, read, updated, one]) {
        expect(answer.headers["content-type"]).toMatch(/^application\/json/);
        expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
        for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(answer.headers[name], name).toBe(value);
        expect(answer.headers["strict-transport-security"]).toBeUndefined();
      }
      // The same wrapper decides: an unknown key, a key without the permission, another project's path.
      expect((await send("localhost:3000", "GET", records, { authorization: "Bearer fp_unknown" })).status).toBe(401);
      expect((await send("localhost:3000", "DELETE", `${records}/rec_missing`, bearer)).status).toBe(403);
      expect((await send("localhost:3000", "GET", "/api/projects/prj_other/records/tickets", bearer)).status).toBe(404);
      expect(nextCalls).toEqual([]);

      // Session calls, methods the routes lack and paths Next would redirect stay with Next.
      await send("localhost:3000", "GET", records);
      await send("localhost:3000", "PUT", records, bearer);
      await send("localhost:3000", "GET", `${records}/`, bearer);
      await send("localhost:3000", "GET", `/api/projects/${project.projectId}/records/%E0%A4%A`, bearer);
      expect(nextCalls.map((call) => call.url)).toEqual([records, records, `${records}/`, `/api/projects/${project.projectId}/records/%E0%A4%A`]);
    });

    it("serves record imports with an API key from their route handler too, streamed; their other methods go to Next", async ({ project, manageKey }) => {
      nextCalls.length = 0;
      const importPath = `/api/projects/${project.projectId}/records/tickets/import`;
      const key = await project.keyFor(["records.create"]);
      const bearer = { authorization: `Bearer ${key}` };
      const lines = `${JSON.stringify({ title: "Imported fast", status: "open" })}\n{"status": "open"}\n`;
      const imported = await send("localhost:3000", "POST", importPath, { ...bearer, "content-type": "application/x-ndjson" }, lines);
      expect(imported.status, imported.body).toBe(200);
      expect(JSON.parse(imported.body)).toEqual({ imported: 1, failedCount: 1, failed: [{ line: 2, issues: [{ path: "title", message: expect.any(String) }] }] });
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(imported.headers[name], name).toBe(value);
      expect((await send("localhost:3000", "POST", importPath, { ...bearer, "content-type": "application/json" }, "{}")).status).toBe(415);
      expect((await send("localhost:3000", "POST", importPath, { authorization: `Bearer ${manageKey}`, "content-type": "application/x-ndjson" }, lines)).status).toBe(403);
      expect(nextCalls).toEqual([]);
      // "import" is never a record id here: other methods get Next's 405, as without the fast path.
      await send("localhost:3000", "GET", importPath, bearer);
      await send("localhost:3000", "DELETE", importPath, bearer);
      expect(nextCalls.map((call) => call.url)).toEqual([importPath, importPath]);
    });

    it("serves the dashboard's host as before, cookie included", async ({ project }) => {
      nextCalls.length = 0;
      expect((await send("localhost:3000", "GET", "/workspaces")).body).toBe("next");
      expect(nextCalls).toEqual([{ url: "/workspaces", cookie: "next-auth.session-token=dashboard-session", rawCookie: true }]);
      const page = await send("localhost:3000", "GET", `/api/projects/${project.projectId}/fn/page`);
      expect(page.headers["content-security-policy"]).toBe(INVOCATION_SANDBOX);
    });
  });
});

describeInProcess("calls proxy.ts in this process", "proxy.ts: headers of the dashboard and the invocation origin inside Next (items 1 and 7)", () => {
  const saved = { INVOCATION_URL: process.env.INVOCATION_URL, APP_URL: process.env.APP_URL, TRUSTED_PROXY: process.env.TRUSTED_PROXY };

  function useEnvironment(values: Partial<Record<keyof typeof saved, string>>): void {
    for (const name of Object.keys(saved) as Array<keyof typeof saved>) {
      if (values[name] === undefined) delete process.env[name];
      else process.env[name] = values[name];
    }
    resetConfigForTests();
  }

  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfigForTests();
  });

  function run(url: string, headers: Record<string, string> = {}) {
    const host = new URL(url).host;
    return proxy(new NextRequest(url, { headers: { host, cookie: "next-auth.session-token=s", ...headers } }));
  }

  it("gives each page a fresh nonce, in its strict policy and in the request Next renders with", () => {
    useEnvironment({ APP_URL: "http://localhost:3000" });
    const first = run("http://localhost:3000/workspaces");
    const second = run("http://localhost:3000/workspaces");
    const policy = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(nonce!.length).toBeGreaterThanOrEqual(22);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).not.toContain("'unsafe-eval'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("allows eval for React's development build only", () => {
    expect(dashboardContentSecurityPolicy("n", { development: true, https: false })).toContain("'unsafe-eval'");
    expect(dashboardContentSecurityPolicy("n", { development: false, https: false })).not.toContain("'unsafe-eval'");
  });

  it("sends HSTS only over https: a https dashboard URL, or x-forwarded-proto from a trusted proxy", () => {
    useEnvironment({ APP_URL: "https://app.flowpoint.example" });
    expect(run("https://app.flowpoint.example/workspaces").headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
    useEnvironment({ APP_URL: "http://localhost:3000" });
    expect(run("http://localhost:3000/workspaces", { "x-forwarded-proto": "https" }).headers.get("strict-transport-security")).toBeNull();
    useEnvironment({ APP_URL: "http://localhost:3000", TRUSTED_PROXY: "x-real-ip" });
    expect(run("http://localhost:3000/workspaces", { "x-forwarded-proto": "https" }).headers.get("strict-transport-security")).toMatch(/^max-age=/);
  });

  it("gives route handlers nosniff and frame-ancestors, and invocations none of the dashboard's headers", () => {
    useEnvironment({});
    const api = run("http://localhost:3000/api/projects/prj_1/api-keys");
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(api.headers.get("x-frame-options")).toBe("DENY");
    const nextAuth = run("http://localhost:3000/api/auth/session");
    expect(nextAuth.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(nextAuth.headers.get("x-content-type-options")).toBe("nosniff");
    const invocation = run("http://localhost:3000/api/projects/prj_1/fn/page");
    expect(invocation.headers.get("content-security-policy")).toBeNull();
    expect(invocation.headers.get("x-frame-options")).toBeNull();
    expect(invocation.headers.get("x-middleware-next")).toBe("1");
  });

  it("answers 404 to an API path with malformed percent-encoding, which Next would answer with a bare 500", async () => {
    useEnvironment({});
    const invocation = run("http://localhost:3000/api/projects/prj_1/fn/ec%E0%A4%A");
    expect(invocation.status).toBe(404);
    expect(invocation.headers.get("x-middleware-next")).toBeNull();
    expectSandboxed(invocation, "malformed invocation path");
    expect(await invocation.json()).toEqual({ error: "not found" });
    const records = run("http://localhost:3000/api/projects/prj_1/records/%E0%A4%A");
    expect(records.status).toBe(404);
    expect(records.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await records.json()).toEqual({ error: "not found", code: "not_found" });
    // Well-formed escapes pass.
    expect(run("http://localhost:3000/api/projects/prj_1/fn/ec%25").headers.get("x-middleware-next")).toBe("1");
  });

  it("refuses a record import that Next would cut to its proxy's 10 MB, and passes one that fits", async () => {
    useEnvironment({});
    const importUrl = "http://localhost:3000/api/projects/prj_1/records/posts/import";
    const post = (headers: Record<string, string>) => proxy(new NextRequest(importUrl, { method: "POST", headers: { host: "localhost:3000", ...headers } }));
    const tooLarge: Array<Record<string, string>> = [{}, { "content-length": String(10 * 1024 * 1024 + 1) }, { "content-length": "1e3" }];
    for (const headers of tooLarge) {
      const refused = post(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(413);
      expect(refused.headers.get("x-middleware-next")).toBeNull();
      expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
      expect(((await refused.json()) as { error: string }).error).toContain("Content-Length");
    }
    expect(post({ "content-length": String(10 * 1024 * 1024) }).headers.get("x-middleware-next")).toBe("1");
    // Other routes and methods are not concerned.
    expect(proxy(new NextRequest(importUrl, { method: "GET", headers: { host: "localhost:3000" } })).headers.get("x-middleware-next")).toBe("1");
    expect(
      proxy(new NextRequest("http://localhost:3000/api/projects/prj_1/records/posts", { method: "POST", headers: { host: "localhost:3000" } })).headers.get("x-middleware-next"),
    ).toBe("1");
  });

  it("serves only the public paths on the invocation origin, and those without the Cookie header", async () => {
    useEnvironment({ INVOCATION_URL: "http://fn.flowpoint.test", APP_URL: "http://localhost:3000" });
    for (const path of ["/workspaces", "/sign-in", "/api/auth/session", "/api/projects/prj_1/api-keys", "/api/projects/prj_1"]) {
      const response = run(`http://fn.flowpoint.test${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("x-middleware-next"), path).toBeNull();
      expect(response.headers.get("set-cookie"), path).toBeNull();
      expect(await response.json()).toEqual({ error: "not found" });
    }
    for (const path of ["/auth/prj_1/users/verify", "/api/projects/prj_1/auth/users/login"]) {
      const response = run(`http://fn.flowpoint.test${path}`);
      expect(response.headers.get("x-middleware-next"), path).toBe("1");
      expect(response.headers.get("x-middleware-override-headers"), path).not.toMatch(/(^|,)cookie(,|$)/);
      expect(response.headers.get("x-middleware-request-cookie"), path).toBeNull();
    }
    // The dashboard's own host keeps its cookie.
    const dashboard = run("http://localhost:3000/workspaces");
    expect(dashboard.headers.get("x-middleware-request-cookie")).toBe("next-auth.session-token=s");
  });
});
