import { describe, expect, it } from "vitest";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { newEndpointDraft, newRow, newStepDraft, type EndpointDraft, type StepDraft } from "./endpoint-draft";
import { hasLiveIssues, liveEndpointIssues, liveStepIssues, outboundHostWarning, slugSuggestion, suggestSlug, withLiveIssues } from "./live-checks";

function step(type: StepDraft["type"], patch: Partial<StepDraft> = {}, settings: Record<string, string | string[]> = {}): StepDraft {
  const draft = newStepDraft(type);
  return { ...draft, ...patch, settings: { ...draft.settings, ...settings } };
}

function endpoint(patch: Partial<EndpointDraft>): EndpointDraft {
  return { ...newEndpointDraft(), name: "Open tickets", slug: "open-tickets", ...patch };
}

describe("slug suggestions", () => {
  it("lowercases, drops accents, joins words with single dashes and trims them", () => {
    expect(suggestSlug("  Open Tickets!! ")).toBe("open-tickets");
    expect(suggestSlug("Crème brûlée / Café")).toBe("creme-brulee-cafe");
    expect(suggestSlug("orders_2024__export")).toBe("orders-2024-export");
    expect(suggestSlug("---")).toBe("");
  });

  it("stays within 64 characters without a trailing dash", () => {
    const suggestion = suggestSlug(`${"a".repeat(63)} b`);
    expect(suggestion).toBe("a".repeat(63));
    expect(suggestSlug("word ".repeat(30)).length).toBeLessThanOrEqual(64);
  });

  it("suggests only for a slug that breaks the rules and has a fix", () => {
    expect(slugSuggestion("Open Tickets")).toBe("open-tickets");
    expect(slugSuggestion("open-tickets")).toBeNull();
    expect(slugSuggestion("")).toBeNull();
    expect(slugSuggestion("!!!")).toBeNull();
  });
});

describe("live endpoint issues", () => {
  it("reports a slug with the characters the API refuses, with its message", () => {
    expect(liveEndpointIssues(endpoint({ slug: "Open Tickets" }))).toEqual([{ path: "slug", message: "must be 1–64 lowercase letters, digits or dashes" }]);
  });

  it("says nothing about fields still empty: that is for Save", () => {
    expect(liveEndpointIssues(newEndpointDraft())).toEqual([]);
    expect(hasLiveIssues(newEndpointDraft())).toBe(false);
  });

  it("checks origins, the response status and header names", () => {
    const issues = liveEndpointIssues(
      endpoint({
        allowedOrigins: "https://shop.example\nshop.example/path",
        response: { status: "700", contentType: "application/json", body: "", headers: [newRow("Bad Header", "x"), newRow("Set-Cookie", "a=1")] },
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual(["allowedOrigins.1", "response.status", "response.headers.Bad Header", "response.headers.Set-Cookie"]);
  });
});

describe("live step issues", () => {
  it("compiles a transform's expression with the library's message", () => {
    const [issue] = liveStepIssues(step("transform", {}, { expression: "steps.a[?x==" }));
    expect(issue?.path).toBe("expression");
    expect(issue?.message).toMatch(/^invalid JMESPath expression: .+/);
    expect(liveStepIssues(step("transform", {}, { expression: "" }))).toEqual([]);
  });

  it("checks limits, URL schemes and header names", () => {
    expect(liveStepIssues(step("query", {}, { schema: "tickets", limit: String(FLOW_LIMITS.maxQueryLimit + 1) })).map((issue) => issue.path)).toEqual(["limit"]);
    expect(liveStepIssues(step("http", {}, { url: "ftp://files.example/a" }))).toEqual([{ path: "url", message: "must be an http:// or https:// URL" }]);
    expect(liveStepIssues(step("http", {}, { url: "https://api.example/{{body.id}}" }))).toEqual([]);
    const headers = liveStepIssues(step("webhook", { rows: [newRow("X Bad", "1"), newRow("Host", "a")] }, { url: "https://hooks.example" }));
    expect(headers).toEqual([
      { path: "headers.X Bad", message: "must be a valid header name" },
      { path: "headers.Host", message: "is set by the HTTP client and cannot be configured" },
    ]);
    expect(hasLiveIssues(endpoint({ steps: [step("http", {}, { url: "ftp://x" })] }))).toBe(true);
  });
});

describe("withLiveIssues", () => {
  it("keeps the server's issues and adds live ones at other paths", () => {
    const server = [{ path: "slug", message: "already used by GET open-tickets" }];
    const live = [
      { path: "slug", message: "must be 1–64 lowercase letters, digits or dashes" },
      { path: "name", message: "too long" },
    ];
    expect(withLiveIssues(server, live)).toEqual([server[0], live[1]]);
  });
});

describe("outbound host warnings", () => {
  it("warns for loopback, private and link-local IP literals in any spelling, and localhost", () => {
    expect(outboundHostWarning("http://127.0.0.1:8080/hook")).toMatch(/^127\.0\.0\.1 is a loopback address: /);
    expect(outboundHostWarning("http://2130706433/")).toMatch(/^127\.0\.0\.1 is a loopback address/);
    expect(outboundHostWarning("http://0x7f.1/")).toMatch(/^127\.0\.0\.1 is a loopback address/);
    expect(outboundHostWarning("https://10.1.2.3/x")).toMatch(/^10\.1\.2\.3 is a private address/);
    expect(outboundHostWarning("https://192.168.0.10/x")).toMatch(/private address/);
    expect(outboundHostWarning("http://169.254.169.254/latest/meta-data")).toMatch(/the cloud metadata address/);
    expect(outboundHostWarning("http://169.254.10.1/")).toMatch(/link-local address/);
    expect(outboundHostWarning("http://[::1]/")).toMatch(/^::1 is a loopback address/);
    expect(outboundHostWarning("http://[::ffff:10.0.0.1]/")).toMatch(/private address/);
    expect(outboundHostWarning("http://localhost:3000/api")).toMatch(/^localhost is a loopback host/);
    expect(outboundHostWarning("http://api.localhost/")).toMatch(/loopback host/);
  });

  it("stays quiet for public hosts, names and hosts made of placeholders", () => {
    expect(outboundHostWarning("https://api.example.com/items/{{body.id}}")).toBeNull();
    expect(outboundHostWarning("https://8.8.8.8/")).toBeNull();
    expect(outboundHostWarning("https://{{body.host}}/x")).toBeNull();
    expect(outboundHostWarning("{{secrets.HOOK_URL}}")).toBeNull();
    expect(outboundHostWarning("not a url")).toBeNull();
    expect(outboundHostWarning("")).toBeNull();
  });

  it("judges a literal host even when the path holds placeholders", () => {
    expect(outboundHostWarning("http://127.0.0.1/items/{{body.id}}?q={{query.q}}")).toMatch(/loopback/);
  });
});
