import { describe, expect, it } from "vitest";
import { endpointInputSchema } from "@/lib/endpoints/endpoint-definition";
import { validateFlow } from "@/lib/flow/flow-definition";
import { STEP_DEFINITIONS } from "@/lib/flow/steps/registry";
import { STEP_KINDS } from "@/lib/flow/steps/step-kind";
import { KINDS_WITHOUT_OUTPUT, newEndpointDraft, newStepDraft, toEndpointDraft, toEndpointInput, toStepDraft, toStepInput } from "./endpoint-draft";

/** A definition that uses every step kind and every setting. */
const FULL_ENDPOINT = {
  name: "Intake",
  method: "POST",
  slug: "intake",
  auth: "end_user",
  authSchema: "members",
  allowedOrigins: ["https://shop.example", "http://localhost:5173"],
  group: "Support",
  cacheSeconds: 0,
  enabled: false,
  steps: [
    {
      type: "condition",
      name: null,
      enabled: true,
      continueOnError: false,
      checks: [
        { left: "{{body.title}}", operator: "exists" },
        { left: "{{body.count}}", operator: "greater_than", right: "2" },
      ],
      combinator: "any",
      stopStatus: 400,
      stopBody: '{"error":"no"}',
    },
    {
      type: "query",
      name: "tickets",
      enabled: true,
      continueOnError: false,
      schema: "tickets",
      filters: "status=open\nowner={{user.id}}",
      limit: 50,
      sort: "-createdAt",
      expand: ["author"],
    },
    { type: "transform", name: "summary", enabled: false, continueOnError: true, expression: "{count: length(steps.tickets)}" },
    { type: "create", name: "created", enabled: true, continueOnError: false, schema: "tickets", values: { title: "{{body.title}}", priority: 3, tags: ["a", "b"] } },
    { type: "update", name: "updated", enabled: true, continueOnError: false, schema: "tickets", filters: "id={{steps.created.id}}", values: { status: "closed" } },
    {
      type: "http",
      name: "lookup",
      enabled: true,
      continueOnError: true,
      method: "POST",
      url: "https://api.example.com/items/{{body.id}}",
      headers: { authorization: "Bearer {{query.token}}" },
      body: '{"a":1}',
    },
    { type: "webhook", name: null, enabled: true, continueOnError: false, url: "https://hooks.example.com/x", headers: {}, body: "" },
    { type: "email", name: null, enabled: true, continueOnError: false, to: "{{user.email}}", template: null, subject: "Hello", body: "<p>Hi</p>", format: "html" },
    { type: "email", name: null, enabled: true, continueOnError: false, to: "ops@example.com", template: "welcome", subject: "", body: "", format: "text" },
  ],
  response: { status: 201, contentType: "application/json", body: "{{steps.summary}}", headers: { "X-Count": "{{steps.tickets.length}}" } },
};

describe("endpoint drafts", () => {
  it("use every step kind in the fixture", () => {
    expect(new Set(FULL_ENDPOINT.steps.map((step) => step.type))).toEqual(new Set(STEP_KINDS));
  });

  it("round-trip a definition with every step kind and setting to the same validated definition", () => {
    const canonical = endpointInputSchema.parse(FULL_ENDPOINT);
    const flow = validateFlow(canonical.steps);
    expect(flow.ok).toBe(true);
    const input = toEndpointInput(toEndpointDraft(canonical));
    const again = validateFlow(input.steps);
    expect(again).toEqual(flow);
    expect(endpointInputSchema.parse(input)).toEqual(canonical);
  });

  it("keep non-string values of an imported definition (numbers, arrays) when their text is unchanged", () => {
    const draft = toStepDraft(FULL_ENDPOINT.steps[3]);
    expect(draft.rows.map((row) => [row.name, row.value, row.json])).toEqual([
      ["title", "{{body.title}}", false],
      ["priority", "3", true],
      ["tags", '["a","b"]', true],
    ]);
    expect(toStepInput(draft).values).toEqual({ title: "{{body.title}}", priority: 3, tags: ["a", "b"] });
  });

  it("send what the service accepts for the mode: no cache unless public GET, an auth schema only for end users", () => {
    const draft = { ...newEndpointDraft(), name: "x", slug: "x", method: "POST" as const, cacheSeconds: 60, authSchema: "members", allowedOrigins: " https://a.example \n\n*" };
    const input = toEndpointInput(draft);
    expect(input.cacheSeconds).toBe(0);
    expect(input.authSchema).toBeNull();
    expect(input.allowedOrigins).toEqual(["https://a.example", "*"]);
    expect(toEndpointInput({ ...draft, method: "GET" }).cacheSeconds).toBe(60);
    expect(toEndpointInput({ ...draft, auth: "end_user" }).authSchema).toBe("members");
  });

  it("start new steps from the registry's defaults, named when the kind has an output", () => {
    for (const kind of STEP_KINDS) {
      const step = newStepDraft(kind, [`${kind}1`]);
      const input = toStepInput(step);
      expect(Object.keys(input).sort()).toEqual(["continueOnError", "enabled", "name", "type", ...Object.keys(STEP_DEFINITIONS[kind].settings.shape)].sort());
      expect(input.name).toBe(KINDS_WITHOUT_OUTPUT.has(kind) ? null : `${kind}2`);
    }
  });

  it("leave the right operand out of exists checks and pass numbers typed as text to the server as they are", () => {
    const step = toStepDraft({ type: "condition", checks: [{ left: "{{body.a}}", operator: "not_exists", right: "ignored" }] });
    expect(toStepInput(step).checks).toEqual([{ left: "{{body.a}}", operator: "not_exists" }]);
    const query = toStepDraft({ type: "query", schema: "tickets", limit: 10 });
    query.settings.limit = "ten";
    // Not a number: sent as typed, so the service's message ("expected number") lands under the Limit input.
    expect(toStepInput(query).limit).toBe("ten");
    query.settings.limit = "";
    expect(toStepInput(query).limit).toBeUndefined();
  });
});
