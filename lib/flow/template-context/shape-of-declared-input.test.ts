import { describe, expect, it } from "vitest";
import type { EndpointInputSpec } from "@/lib/endpoints/endpoint-input";
import { buildTemplateContext, type TemplateFlowOwner } from "./build-template-context";
import { findFlowTemplateWarnings } from "./find-flow-template-warnings";
import { listPlaceholderSuggestions } from "./list-placeholder-suggestions";

const input: EndpointInputSpec = {
  query: { page: { type: "integer", min: 1 }, tag: { type: "array" }, dryRun: { type: "boolean" } },
  body: { email: { type: "string", required: true }, tags: { type: "array" }, meta: { type: "object" } },
};
const typed: TemplateFlowOwner = { kind: "endpoint", auth: "public", input };
const free: TemplateFlowOwner = { kind: "endpoint", auth: "public" };

describe("templates of an endpoint with a typed input", () => {
  it("knows body.<field> and query.<field> with their types", () => {
    const context = buildTemplateContext({ steps: [], at: "response", schemas: [], owner: typed });
    const body = listPlaceholderSuggestions(context, "body.");
    expect(body.map((suggestion) => [suggestion.path, suggestion.hint])).toEqual([
      ["body.email", "text, required"],
      ["body.tags", "list, optional"],
      ["body.meta", "object, optional"],
    ]);
    const query = listPlaceholderSuggestions(context, "query.");
    expect(query.map((suggestion) => [suggestion.path, suggestion.hint])).toEqual([
      ["query.page", "whole number, optional"],
      ["query.tag", "list, optional"],
      ["query.dryRun", "true or false, optional"],
    ]);
  });

  it("keeps the declared fields as suggestions even after a test run with another sample", () => {
    const context = buildTemplateContext({ steps: [], at: "response", schemas: [], owner: typed, testRequest: { body: { other: 1 }, query: { x: "1" } } });
    expect(listPlaceholderSuggestions(context, "body.").map((suggestion) => suggestion.path)).toEqual(["body.email", "body.tags", "body.meta"]);
  });

  it("warns, without blocking, about an undeclared body field and a path into a declared number", () => {
    const warnings = findFlowTemplateWarnings({
      steps: [],
      response: {
        body: '{"a": "{{body.email}}", "b": "{{body.nickname}}", "c": "{{query.page.x}}", "d": "{{body.meta.anything}}", "e": "{{query.tag.0}}", "f": "{{body.email.length}}"}',
      },
      schemas: [],
      owner: typed,
    });
    expect(warnings.map((warning) => warning.placeholder)).toEqual(["{{body.nickname}}", "{{query.page.x}}"]);
    expect(warnings[0]?.message).toContain("not declared in the endpoint's input");
  });

  it("knows nothing about a free-form body: no warnings without a declared input", () => {
    const warnings = findFlowTemplateWarnings({ steps: [], response: { body: '{"b": "{{body.nickname}}", "q": "{{query.anything}}"}' }, schemas: [], owner: free });
    expect(warnings).toEqual([]);
    const onlyBody: TemplateFlowOwner = { kind: "endpoint", auth: "public", input: { body: { email: { type: "string" } } } };
    expect(findFlowTemplateWarnings({ steps: [], response: { body: "{{query.anything}}" }, schemas: [], owner: onlyBody })).toEqual([]);
  });
});
