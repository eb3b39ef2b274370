import { describe, expect, it } from "vitest";
import { findFlowTemplateWarnings } from "./find-flow-template-warnings";
import { listStepTemplateFields } from "./list-template-fields";
import type { TemplateContextSchema } from "./shape-of-record";

const schemas: TemplateContextSchema[] = [{ name: "tickets", kind: "collection", fields: [{ name: "title", type: "string" }] }];

describe("listStepTemplateFields", () => {
  it("lists every template a kind renders, with paths relative to the step, and skips JMESPath and saved template names", () => {
    expect(listStepTemplateFields({ type: "query", schema: "tickets", filters: "title={{body.t}}" })).toEqual([{ path: "filters", template: "title={{body.t}}" }]);
    expect(listStepTemplateFields({ type: "transform", expression: "steps.a" })).toEqual([]);
    expect(
      listStepTemplateFields({
        type: "condition",
        checks: [
          { left: "{{body.a}}", operator: "equals", right: 3 },
          { left: "x", operator: "exists" },
        ],
        stopBody: "{{body.b}}",
      }),
    ).toEqual([
      { path: "checks.0.left", template: "{{body.a}}" },
      { path: "checks.1.left", template: "x" },
      { path: "stopBody", template: "{{body.b}}" },
    ]);
    expect(listStepTemplateFields({ type: "create", schema: "tickets", values: { title: "{{body.t}}", tags: ["{{body.a}}", 2], seo: { slug: "{{body.s}}" } } })).toEqual([
      { path: "values.title", template: "{{body.t}}" },
      { path: "values.tags.0", template: "{{body.a}}" },
      { path: "values.seo.slug", template: "{{body.s}}" },
    ]);
    expect(listStepTemplateFields({ type: "http", url: "https://x/{{body.id}}", headers: { "X-Id": "{{body.id}}" }, body: "" }).map((field) => field.path)).toEqual([
      "url",
      "headers.X-Id",
    ]);
    expect(listStepTemplateFields({ type: "email", to: "{{body.to}}", template: "welcome", subject: "{{body.s}}", body: "b" }).map((field) => field.path)).toEqual(["to"]);
    expect(listStepTemplateFields({ type: "email", to: "a@b.c", template: null, subject: "{{body.s}}", body: "b" }).map((field) => field.path)).toEqual(["to", "subject", "body"]);
    expect(listStepTemplateFields({ type: "unknown-kind", url: "{{x}}" })).toEqual([]);
  });
});

describe("findFlowTemplateWarnings", () => {
  it("checks each step against the steps before it and the response against all, with API paths", () => {
    const warnings = findFlowTemplateWarnings({
      steps: [
        { type: "query", name: "tickets", schema: "tickets", filters: "title={{steps.made.title}}" },
        { type: "create", name: "made", schema: "tickets", values: { title: "{{steps.tickets.0.title}}" } },
        { type: "http", name: "call", url: "https://api.example.com/{{steps.made.titel}}", headers: { "X-Total": "{{steps.tickets.length}}" } },
      ],
      response: { body: '{"a": {{steps.call.status}}, "b": {{steps.nope}}}', headers: { "X-Who": "{{user.email}}" } },
      schemas,
      owner: { kind: "endpoint", auth: "api_key" },
    });
    expect(warnings).toEqual([
      {
        path: "steps.0.filters",
        placeholder: "{{steps.made.title}}",
        message: "{{steps.made.title}} will not resolve: step 2 (made) runs after this one, so its output does not exist yet",
      },
      { path: "steps.2.url", placeholder: "{{steps.made.titel}}", message: '{{steps.made.titel}} will not resolve: steps.made (tickets record) has no field "titel"' },
      { path: "response.body", placeholder: "{{steps.nope}}", message: '{{steps.nope}} will not resolve: no step has the output name "nope"' },
      {
        path: "response.headers.X-Who",
        placeholder: "{{user.email}}",
        message: "{{user.email}} will not resolve: this endpoint has no signed-in user (auth is api_key); user is set on end-user endpoints",
      },
    ]);
  });

  it("answers nothing for a flow whose steps are not objects (the shape check reports those)", () => {
    expect(findFlowTemplateWarnings({ steps: ["nope"], schemas, owner: { kind: "endpoint", auth: "public" } })).toEqual([]);
  });

  it("checks automations against their trigger", () => {
    const warnings = findFlowTemplateWarnings({
      steps: [{ type: "email", to: "{{trigger.fields.email}}", template: null, subject: "Hi {{body.name}}", body: "{{trigger.fields.message}}" }],
      schemas,
      owner: { kind: "automation", trigger: { type: "form" } },
    });
    expect(warnings.map((warning) => [warning.path, warning.placeholder])).toEqual([["steps.0.subject", "{{body.name}}"]]);
  });
});
