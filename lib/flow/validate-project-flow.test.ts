import { describe, expect, it } from "vitest";
import { parseFlowOrThrow } from "@/lib/flow/flow-definition";
import { isRecordSchema, projectFlowIssues, type ProjectSchemas } from "./validate-project-flow";

const schemas: ProjectSchemas = new Map([
  [
    "tickets",
    {
      kind: "collection",
      fields: new Map([
        ["title", { type: "string" }],
        ["status", { type: "enum" }],
        ["author", { type: "relation" }],
      ]),
    },
  ],
  ["members", { kind: "auth", fields: new Map([["nickname", { type: "string" }]]) }],
  ["seo", { kind: "component", fields: new Map([["title", { type: "string" }]]) }],
]);

const issuesOf = (steps: unknown[]) => projectFlowIssues(parseFlowOrThrow(steps), schemas);

describe("projectFlowIssues", () => {
  it("accepts steps that name real schemas, fields, system fields, auth built-ins and relations", () => {
    expect(
      issuesOf([
        { type: "query", name: "open", schema: "tickets", filters: "status=open\nid={{body.id}}", sort: "-createdAt", expand: ["author"] },
        { type: "create", schema: "tickets", values: { title: "{{body.title}}", status: "open" } },
        { type: "update", schema: "members", filters: "email={{trigger.record.email}}", values: { nickname: "x", emailVerified: true } },
        { type: "transform", expression: "steps.open" },
      ]),
    ).toEqual([]);
  });

  it("names each unknown schema, component schema, field, filter, sort key and non-relation expansion", () => {
    const issues = issuesOf([
      { type: "query", schema: "nope" },
      { type: "create", schema: "seo", values: {} },
      { type: "query", schema: "tickets", filters: "colour=red", sort: "-size", expand: ["title"] },
      { type: "update", schema: "tickets", filters: "status=open", values: { ghost: 1 } },
      { type: "query", schema: "tickets", filters: "email=x" },
    ]);
    expect(issues.map((issue) => issue.path)).toEqual([
      "steps.0.schema",
      "steps.1.schema",
      "steps.2.filters",
      "steps.2.expand.0",
      "steps.2.sort",
      "steps.3.values",
      "steps.4.filters",
    ]);
    expect(issues[0]!.message).toBe('the schema "nope" does not exist');
    expect(issues[2]!.message).toBe('filter field "colour" is not a field of the schema');
  });

  it("tells record schemas from components and unknown names", () => {
    expect(["tickets", "members", "seo", "nope"].map((name) => isRecordSchema(schemas, name))).toEqual([true, true, false, false]);
  });
});
