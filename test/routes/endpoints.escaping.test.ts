import { describe, expect } from "vitest";
import { externalRouteTest } from "@/test/support/route-test";

/**
 * Security issue 9, item 2: an endpoint's answer escapes every inserted value for its content type
 * (markup in HTML and XML, one neutralised field in CSV), over real HTTP, for saved endpoints,
 * condition stops and test runs alike.
 */

const SCRIPT = "<script>alert(1)</script>";

/** The client with a key for the endpoints API, on a project with an endpoint per content type and one with a condition. */
const it = externalRouteTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  const api = ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update"]) } });
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
  return api;
});

describe("endpoint answers escape inserted values for their content type", () => {
  it("text/html: GET /fn/render?q=<script>alert(1)</script> answers the script as text", async ({ api }) => {
    const response = await api.invoke("render", {}, `?${new URLSearchParams({ q: SCRIPT })}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("<h1>Hello &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
  });

  it("application/xml: a value breaks neither an attribute nor an owner's CDATA section", async ({ api }) => {
    const response = await api.invoke("feed", {}, `?${new URLSearchParams({ q: '"/><x/>]]><y/>' })}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<item title="&quot;/&gt;&lt;x/&gt;]]&gt;&lt;y/&gt;"><![CDATA[&quot;/&gt;&lt;x/&gt;]]&gt;&lt;y/&gt;]]></item>');
  });

  it("text/csv: a value stays one field and never starts a formula", async ({ api }) => {
    const response = await api.invoke("export", {}, `?${new URLSearchParams({ name: '=HYPERLINK("http://evil")', note: "a,b\nc" })}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('name,note\n"\'=HYPERLINK(""http://evil"")","a,b\nc"\n');
  });

  it("text/plain: values are served verbatim", async ({ api }) => {
    const response = await api.invoke("plain", {}, `?${new URLSearchParams({ q: SCRIPT })}`);
    expect(await response.text()).toBe(`You said ${SCRIPT}`);
  });

  it("a condition's stop answer is JSON, whatever the endpoint's content type", async ({ api }) => {
    const response = await api.invoke("guarded", {}, `?${new URLSearchParams({ q: SCRIPT })}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toBe(`Missing "ok" for ${SCRIPT}`);
    const passed = await api.invoke("guarded", {}, `?${new URLSearchParams({ q: SCRIPT, ok: "1" })}`);
    expect(await passed.text()).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
  });

  it("a test run renders the draft's answer exactly as an invocation would", async ({ api }) => {
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
