import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

/**
 * Security issue 9, item 2: an endpoint's answer escapes every inserted value for its content type
 * (markup in HTML and XML, one neutralised field in CSV), over real HTTP, for saved endpoints,
 * condition stops and test runs alike.
 */

let server: RouteServer;
let fixture: ProjectFixture;
let manageKey: string;
let api: ProjectApi;

const SCRIPT = "<script>alert(1)</script>";

beforeAll(async () => {
  server = await startRouteServer({ allowExternal: true });
  fixture = await createProjectFixture("Escaping");
  manageKey = await fixture.keyFor(["endpoints.read", "endpoints.create", "endpoints.update"]);
  api = projectApi(server, fixture, { key: manageKey });
  const definitions = [
    { name: "Render", method: "GET", slug: "render", response: { contentType: "text/html", body: "<h1>Hello {{query.q}}</h1>" } },
    { name: "Feed", method: "GET", slug: "feed", response: { contentType: "application/xml", body: '<item title="{{query.q}}"><![CDATA[{{query.q}}]]></item>' } },
    { name: "Export", method: "GET", slug: "export", response: { contentType: "text/csv", body: "name,note\n{{query.name}},{{query.note}}\n" } },
    { name: "Plain", method: "GET", slug: "plain", response: { contentType: "text/plain", body: "You said {{query.q}}" } },
    {
      name: "Guarded page",
      method: "GET",
      slug: "guarded",
      steps: [{ type: "condition", checks: [{ left: "{{query.ok}}", operator: "exists" }], stopStatus: 400, stopBody: 'Missing "ok" for {{query.q}}' }],
      response: { contentType: "text/html", body: "<p>{{query.q}}</p>" },
    },
  ];
  for (const definition of definitions) {
    const response = await api.manage("/endpoints", { method: "POST", body: JSON.stringify(definition) });
    expect(response.status, await response.clone().text()).toBe(201);
  }
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function invoke(slug: string, query: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/api/projects/${fixture.projectId}/fn/${slug}?${new URLSearchParams(query)}`);
}

describe("endpoint answers escape inserted values for their content type", () => {
  it("text/html: GET /fn/render?q=<script>alert(1)</script> answers the script as text", async () => {
    const response = await invoke("render", { q: SCRIPT });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("<h1>Hello &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
  });

  it("application/xml: a value breaks neither an attribute nor an owner's CDATA section", async () => {
    const response = await invoke("feed", { q: '"/><x/>]]><y/>' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<item title="&quot;/&gt;&lt;x/&gt;]]&gt;&lt;y/&gt;"><![CDATA[&quot;/&gt;&lt;x/&gt;]]&gt;&lt;y/&gt;]]></item>');
  });

  it("text/csv: a value stays one field and never starts a formula", async () => {
    const response = await invoke("export", { name: '=HYPERLINK("http://evil")', note: "a,b\nc" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('name,note\n"\'=HYPERLINK(""http://evil"")","a,b\nc"\n');
  });

  it("text/plain: values are served verbatim", async () => {
    const response = await invoke("plain", { q: SCRIPT });
    expect(await response.text()).toBe(`You said ${SCRIPT}`);
  });

  it("a condition's stop answer is JSON, whatever the endpoint's content type", async () => {
    const response = await invoke("guarded", { q: SCRIPT });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toBe(`Missing "ok" for ${SCRIPT}`);
    const passed = await invoke("guarded", { q: SCRIPT, ok: "1" });
    expect(await passed.text()).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
  });

  it("a test run renders the draft's answer exactly as an invocation would", async () => {
    const response = await api.manage("/endpoints/test-run", {
      method: "POST",
      body: JSON.stringify({ endpoint: { response: { contentType: "text/html", body: "<h1>Hello {{query.q}}</h1>" } }, query: { q: SCRIPT } }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const result = (await response.json()) as { response: { headers: Record<string, string>; body: unknown } };
    expect(result.response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(result.response.body).toBe("<h1>Hello &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
  });
});
