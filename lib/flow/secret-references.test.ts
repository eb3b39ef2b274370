import { describe, expect, it } from "vitest";
import { validateFlow } from "./flow-definition";
import { SECRET_PLACEMENT_MESSAGE, secretNamesIn, secretNamesInValue } from "./secret-references";

function issuesOf(steps: unknown[]) {
  const result = validateFlow(steps);
  return result.ok ? [] : result.issues;
}

describe("secret references", () => {
  it("finds the names a template reads, spaced or not, and ignores other roots and malformed mentions", () => {
    expect(secretNamesIn(["Bearer {{secrets.API_TOKEN}}", "{{ secrets.OTHER }}/{{body.id}}", "{{secrets.API_TOKEN}}"])).toEqual(["API_TOKEN", "OTHER"]);
    expect(secretNamesIn(["{{body.secrets}}", "secrets.X", "{{steps.secrets.X}}"])).toEqual([]);
    expect(secretNamesInValue({ steps: [{ headers: { a: "{{secrets.B}}" } }, { url: "{{secrets.A}}" }] })).toEqual(["A", "B"]);
  });

  it("accepts secrets in the URL, header values and body of http, webhook and email steps", () => {
    const result = validateFlow([
      {
        type: "http",
        method: "POST",
        url: "{{secrets.BASE_URL}}/v1?key={{secrets.KEY}}",
        headers: { authorization: "Bearer {{ secrets.API_TOKEN }}" },
        body: '{"k": "{{secrets.KEY}}"}',
      },
      { type: "webhook", url: "https://hooks.example/{{secrets.HOOK}}", headers: { "x-sig": "{{secrets.SIG}}" }, body: "token={{secrets.KEY}}" },
      { type: "email", to: "ops@example.com", subject: "Report", body: "Key: {{secrets.KEY}}" },
    ]);
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  it("refuses secrets everywhere else with the path of the field", () => {
    const cases: Array<[unknown, string]> = [
      [{ type: "transform", name: "t", expression: "'{{secrets.API_TOKEN}}'" }, "steps.0.expression"],
      [{ type: "condition", checks: [{ left: "{{secrets.API_TOKEN}}", operator: "equals", right: "x" }] }, "steps.0.checks.0.left"],
      [{ type: "condition", checks: [{ left: "{{body.a}}", operator: "exists" }], stopBody: '{"t": "{{secrets.API_TOKEN}}"}' }, "steps.0.stopBody"],
      [{ type: "create", schema: "tickets", values: { title: "{{secrets.API_TOKEN}}" } }, "steps.0.values.title"],
      [{ type: "query", schema: "tickets", filters: "title={{ secrets.API_TOKEN }}" }, "steps.0.filters"],
      [{ type: "email", to: "{{secrets.API_TOKEN}}@example.com", subject: "s", body: "b" }, "steps.0.to"],
      [{ type: "email", to: "a@example.com", subject: "{{secrets.API_TOKEN}}", body: "b" }, "steps.0.subject"],
      [{ type: "http", url: "https://api.example", headers: { "{{secrets.API_TOKEN}}": "x" } }, "steps.0.headers.{{secrets.API_TOKEN}}"],
    ];
    for (const [step, path] of cases) {
      expect(issuesOf([step]), path).toContainEqual({ path, message: SECRET_PLACEMENT_MESSAGE });
    }
  });

  it("refuses malformed references even where secrets are allowed", () => {
    for (const url of ["https://a.example/{{secrets.lower}}", "https://a.example/{{secrets.A.length}}", "https://a.example/{{secrets}}"]) {
      const issues = issuesOf([{ type: "http", url }]);
      expect(
        issues.map((issue) => issue.path),
        url,
      ).toEqual(["steps.0.url"]);
      expect(issues[0]?.message).toMatch(/\{\{secrets\.NAME\}\}/);
    }
  });
});

describe("where a step that sends secrets may connect", () => {
  it("refuses a scheme, host or port taken from run data, accepts literal and secret origins", () => {
    const refused = [
      "https://{{body.host}}/v1",
      "{{steps.config.baseUrl}}/items",
      "https://api.example:{{query.port}}/x",
      "{{query.scheme}}://api.example/x",
      "https://{{body.user}}@api.example/x",
    ];
    for (const url of refused) {
      const issues = issuesOf([{ type: "http", url, headers: { authorization: "Bearer {{secrets.API_TOKEN}}" } }]);
      expect(
        issues.map((issue) => issue.path),
        url,
      ).toContain("steps.0.url");
    }
    const accepted = ["https://api.example/v1/{{body.id}}?q={{query.q}}", "{{secrets.BASE_URL}}/items/{{body.id}}", "https://{{secrets.HOST}}/x"];
    for (const url of accepted) {
      expect(issuesOf([{ type: "webhook", url, headers: { "x-key": "{{secrets.API_TOKEN}}" } }]), url).toEqual([]);
    }
    // Without secrets the old freedom stays.
    expect(issuesOf([{ type: "http", url: "{{steps.config.baseUrl}}/items" }])).toEqual([]);
  });
});
