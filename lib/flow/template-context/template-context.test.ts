import { describe, expect, it } from "vitest";
import { buildTemplateContext, type BuildTemplateContextOptions, type TemplateFlowOwner } from "./build-template-context";
import { findUnresolvedPlaceholders } from "./find-unresolved-placeholders";
import { listPlaceholderSuggestions } from "./list-placeholder-suggestions";
import type { TemplateContextSchema } from "./shape-of-record";
import { describeShape } from "./value-shape";

const schemas: TemplateContextSchema[] = [
  {
    name: "tickets",
    kind: "collection",
    fields: [
      { name: "title", type: "string" },
      { name: "status", type: "enum" },
      { name: "priority", type: "integer" },
      { name: "author", type: "relation" },
      { name: "meta", type: "json" },
    ],
  },
  { name: "members", kind: "auth", fields: [{ name: "displayName", type: "string" }] },
  { name: "seo", kind: "component", fields: [{ name: "slug", type: "string" }] },
];

const publicEndpoint: TemplateFlowOwner = { kind: "endpoint", auth: "public" };

const flow = [
  { type: "query", name: "tickets", schema: "tickets", expand: ["author"] },
  { type: "transform", name: "summary", expression: "length(steps.tickets)" },
  { type: "create", name: "created", schema: "tickets" },
  { type: "update", name: "closed", schema: "tickets", filters: "id={{body.id}}" },
  { type: "http", name: "call", method: "GET", url: "https://api.example.com" },
  { type: "condition", name: "gate", checks: [] },
  { type: "query", name: "off", schema: "tickets", enabled: false },
];

function contextAt(at: BuildTemplateContextOptions["at"], extra: Partial<BuildTemplateContextOptions> = {}) {
  return buildTemplateContext({ steps: flow, at, schemas, owner: publicEndpoint, ...extra });
}

function problems(template: string, at: BuildTemplateContextOptions["at"], extra: Partial<BuildTemplateContextOptions> = {}) {
  return findUnresolvedPlaceholders(template, contextAt(at, extra)).map((found) => `${found.raw} ${found.message}`);
}

describe("buildTemplateContext", () => {
  it("places every named step relative to the template being written", () => {
    const context = contextAt(2);
    expect([...context.steps.values()].map((step) => [step.name, step.availability])).toEqual([
      ["tickets", "available"],
      ["summary", "available"],
      ["created", "self"],
      ["closed", "later"],
      ["call", "later"],
      ["gate", "later"],
      ["off", "disabled"],
    ]);
    expect([...contextAt("response").steps.values()].filter((step) => step.availability === "available")).toHaveLength(6);
  });

  it("shapes data steps from their schema before any run: a query is a list of records with system fields and its expanded relations", () => {
    const tickets = contextAt(1).steps.get("tickets")!;
    expect(tickets.shape.kind).toBe("array");
    expect(describeShape(tickets.shape)).toBe("list of tickets records");
    const record = tickets.shape.kind === "array" ? tickets.shape.items : null;
    expect(record?.kind === "object" ? [...record.fields.keys()] : []).toEqual(["id", "createdAt", "updatedAt", "title", "status", "priority", "author", "meta", "expand"]);
    const closed = contextAt("response").steps.get("closed")!.shape;
    expect(closed.kind === "object" && closed.fields.get("matched")?.kind).toBe("boolean");
  });

  it("leaves a transform's output unknown until a test run shows one, and keeps the schema shape for the lint", () => {
    const before = contextAt(2).steps.get("summary")!;
    expect(before.shape.kind).toBe("unknown");
    expect(before.fromTestRun).toBe(false);
    const after = contextAt(2, { testOutputs: { summary: { open: 2, titles: ["a"] }, tickets: [] } });
    expect(after.steps.get("summary")!.previewShape).toMatchObject({ kind: "object" });
    expect(after.steps.get("summary")!.shape.kind).toBe("unknown");
    expect(after.steps.get("tickets")!.fromTestRun).toBe(true);
    expect(after.steps.get("tickets")!.shape.kind).toBe("array");
  });

  it("gives user the auth schema's fields on an end-user endpoint, and null elsewhere", () => {
    const endUser = contextAt(0, { owner: { kind: "endpoint", auth: "end_user", authSchema: "members" } }).roots.get("user")!;
    expect(endUser.kind === "object" ? [...endUser.fields.keys()] : []).toEqual(["id", "createdAt", "updatedAt", "email", "emailVerified", "displayName"]);
    expect(contextAt(0).roots.get("user")!.kind).toBe("null");
    expect(contextAt(0, { owner: { kind: "endpoint", auth: "end_user", authSchema: "nope" } }).roots.get("user")!.kind).toBe("unknown");
  });

  it("shapes an automation's trigger by its type and empties body and query", () => {
    const record = contextAt(0, { owner: { kind: "automation", trigger: { type: "record", schema: "tickets" } } });
    const trigger = record.roots.get("trigger")!;
    expect(trigger.kind === "object" ? [...trigger.fields.keys()] : []).toEqual(["event", "schema", "record", "previous"]);
    expect(record.roots.get("body")).toMatchObject({ kind: "object", note: expect.stringContaining("trigger") });
    const form = contextAt(0, { owner: { kind: "automation", trigger: { type: "form" } } }).roots.get("trigger")!;
    expect(form.kind === "object" ? [...form.fields.keys()] : []).toEqual(["form", "submissionId", "fields", "submittedAt", "ip"]);
    expect(contextAt(0, { owner: { kind: "automation", trigger: { type: "manual" } } }).roots.get("trigger")!.kind).toBe("unknown");
  });

  it("keeps the first of two steps with the same output name (the flow check reports the second)", () => {
    const context = buildTemplateContext({
      steps: [
        { type: "query", name: "a", schema: "tickets" },
        { type: "transform", name: "a" },
      ],
      at: "response",
      schemas,
      owner: publicEndpoint,
    });
    expect(context.steps.get("a")?.index).toBe(0);
  });
});

describe("findUnresolvedPlaceholders", () => {
  it("accepts what resolves: earlier outputs, schema fields, indexes, length, system fields, expanded relations", () => {
    const template = [
      "{{steps.tickets}}",
      "{{ steps.tickets.0.title }}",
      "{{steps.tickets.length}}",
      "{{steps.tickets.0.title.length}}",
      "{{steps.tickets.12.id}}",
      "{{steps.tickets.0.expand.author.name}}",
      "{{steps.tickets.0.meta.anything.deep}}",
      "{{steps.tickets.0.author}}",
      "{{steps}}",
    ].join(" ");
    expect(problems(template, 3)).toEqual([]);
  });

  it("never warns below a shape unknown before a run: transforms, HTTP reply bodies, request body and query, the trigger of an endpoint", () => {
    expect(problems("{{steps.summary.open}} {{steps.call.body.items.0.x}} {{body.a.b}} {{query.page}} {{trigger.x.y}}", "response")).toEqual([]);
  });

  it("leaves secrets to the placement rule", () => {
    expect(problems("Bearer {{secrets.API_TOKEN}}", 0)).toEqual([]);
  });

  it("reports an unknown step, a later step, the step's own output and a disabled step", () => {
    expect(problems("{{steps.nope.id}}", 1)).toEqual(['{{steps.nope.id}} no step has the output name "nope"']);
    expect(problems("{{steps.closed.id}}", 1)).toEqual(["{{steps.closed.id}} step 4 (closed) runs after this one, so its output does not exist yet"]);
    expect(problems("{{steps.created}}", 2)).toEqual(["{{steps.created}} this is step 3 (created)'s own output, which exists only after it ran"]);
    expect(problems("{{steps.off}}", "response")).toEqual(["{{steps.off}} step 7 (off) is disabled, so it leaves no output"]);
  });

  it("reports a field the schema lacks, for query, create and update outputs", () => {
    expect(problems("{{steps.tickets.0.titel}}", 1)).toEqual(['{{steps.tickets.0.titel}} steps.tickets.0 (tickets record) has no field "titel"']);
    expect(problems("{{steps.created.nope}} {{steps.closed.matched}} {{steps.closed.nope}}", "response")).toEqual([
      '{{steps.created.nope}} steps.created (tickets record) has no field "nope"',
      '{{steps.closed.nope}} steps.closed (tickets record) has no field "nope"',
    ]);
    expect(problems("{{steps.tickets.0.expand.status}}", 1)).toEqual(['{{steps.tickets.0.expand.status}} steps.tickets.0.expand (expanded relations) has no field "status"']);
  });

  it("reports a list read without an index and paths below text, numbers and outputs that are always empty", () => {
    expect(problems("{{steps.tickets.title}}", 1)).toEqual([
      "{{steps.tickets.title}} steps.tickets is a list of tickets records: read an item with steps.tickets.0.title or the count with .length",
    ]);
    expect(problems("{{steps.tickets.0.title.first}}", 1)).toEqual(["{{steps.tickets.0.title.first}} steps.tickets.0.title is text: only .length can follow it"]);
    expect(problems("{{steps.tickets.0.priority.x}}", 1)).toEqual(["{{steps.tickets.0.priority.x}} steps.tickets.0.priority is a number: nothing can follow it"]);
    expect(problems("{{steps.gate.x}}", "response")).toEqual(["{{steps.gate.x}} a condition step has no output"]);
    expect(problems("{{steps.call.status}} {{steps.call.headers}}", "response")).toEqual(['{{steps.call.headers}} steps.call (HTTP reply) has no field "headers"']);
  });

  it("reports unknown roots and malformed paths, which the renderer leaves as literal text", () => {
    expect(problems("Hi {{name}}", 0)).toEqual(['{{name}} "name" is not something a template can read; placeholders start with body, query, user, steps, trigger']);
    expect(problems("{{body..x}} {{steps.a b}}", 0)).toHaveLength(2);
  });

  it("reports user.* where no user signs in, and checks the auth schema's fields where one does", () => {
    expect(problems("{{user.id}}", 0)).toEqual(["{{user.id}} this endpoint has no signed-in user (auth is public); user is set on end-user endpoints"]);
    const endUser = { owner: { kind: "endpoint", auth: "end_user", authSchema: "members" } } as const;
    expect(problems("{{user.id}} {{user.email}} {{user.displayName}} {{user.emailVerified}}", 0, endUser)).toEqual([]);
    expect(problems("{{user.nickname}}", 0, endUser)).toEqual(['{{user.nickname}} user (signed-in members user) has no field "nickname"']);
  });

  it("checks an automation's trigger payload and refuses request data there", () => {
    const recordTrigger = { owner: { kind: "automation", trigger: { type: "record", schema: "tickets" } } } as const;
    expect(problems("{{trigger.record.title}} {{trigger.previous.status}} {{trigger.event}}", 0, recordTrigger)).toEqual([]);
    expect(problems("{{trigger.record.titel}}", 0, recordTrigger)).toEqual(['{{trigger.record.titel}} trigger.record (tickets record) has no field "titel"']);
    expect(problems("{{body.email}}", 0, recordTrigger)).toEqual([
      '{{body.email}} body (empty) has no field "email": an automation has no request: read what started it as {{trigger.…}}',
    ]);
    expect(problems("{{user.id}}", 0, recordTrigger)).toEqual(["{{user.id}} an automation has no signed-in user"]);
    const formTrigger = { owner: { kind: "automation", trigger: { type: "form" } } } as const;
    expect(problems("{{trigger.fields.email}} {{trigger.submittedAt}}", 0, formTrigger)).toEqual([]);
    expect(problems("{{trigger.email}}", 0, formTrigger)).toEqual(['{{trigger.email}} trigger (form submission) has no field "email"']);
    const schedule = { owner: { kind: "automation", trigger: { type: "schedule" } } } as const;
    expect(problems("{{trigger.scheduledAt}} {{trigger.at}}", 0, schedule)).toEqual(['{{trigger.at}} trigger (schedule tick) has no field "at"']);
  });

  it("does not report against fields that only a test output lacks", () => {
    expect(problems("{{steps.tickets.0.status}}", 1, { testOutputs: { tickets: [{ id: "r1", title: "x" }] } })).toEqual([]);
  });

  it("gives each problem's position in the template so the editor can mark it", () => {
    const template = "a {{steps.nope}} b {{body.x}} c {{steps.zip}}";
    expect(findUnresolvedPlaceholders(template, contextAt(0)).map((found) => template.slice(found.start, found.end))).toEqual(["{{steps.nope}}", "{{steps.zip}}"]);
  });
});

describe("listPlaceholderSuggestions", () => {
  const labels = (typed: string, at: BuildTemplateContextOptions["at"], extra: Partial<BuildTemplateContextOptions> = {}) =>
    listPlaceholderSuggestions(contextAt(at, extra), typed).map((suggestion) => suggestion.path);

  it("offers the readable roots after {{, steps only when an earlier step has an output", () => {
    expect(labels("", 0)).toEqual(["body", "query", "trigger"]);
    expect(labels("", 1)).toEqual(["body", "query", "trigger", "steps"]);
    expect(labels("", 1, { owner: { kind: "endpoint", auth: "end_user", authSchema: "members" } })).toEqual(["body", "query", "user", "trigger", "steps"]);
    expect(labels("", 0, { owner: { kind: "automation", trigger: { type: "form" } } })).toEqual(["trigger"]);
    expect(labels("q", 0)).toEqual(["query"]);
  });

  it("offers only earlier enabled steps, filtered by what is typed, case-insensitively", () => {
    expect(labels("steps.", 3)).toEqual(["steps.tickets", "steps.summary", "steps.created"]);
    expect(labels("steps.", "response")).toEqual(["steps.tickets", "steps.summary", "steps.created", "steps.closed", "steps.call", "steps.gate"]);
    expect(labels("steps.S", 3)).toEqual(["steps.summary"]);
    expect(labels("  steps.tic", 3)).toEqual(["steps.tickets"]);
  });

  it("walks into records of the query's schema before any run", () => {
    expect(labels("steps.tickets.", 1)).toEqual(["steps.tickets.0", "steps.tickets.length"]);
    expect(labels("steps.tickets.0.", 1)).toEqual([
      "steps.tickets.0.id",
      "steps.tickets.0.createdAt",
      "steps.tickets.0.updatedAt",
      "steps.tickets.0.title",
      "steps.tickets.0.status",
      "steps.tickets.0.priority",
      "steps.tickets.0.author",
      "steps.tickets.0.meta",
      "steps.tickets.0.expand",
    ]);
    expect(labels("steps.tickets.3.ti", 1)).toEqual(["steps.tickets.3.title"]);
    const [title] = listPlaceholderSuggestions(contextAt(1), "steps.tickets.0.title");
    expect(title).toMatchObject({ label: "title", hint: "text", continues: false });
    const [priority] = listPlaceholderSuggestions(contextAt(1), "steps.tickets.0.priority");
    expect(priority).toMatchObject({ hint: "integer", continues: false });
  });

  it("shows the last test output's shape, which a transform has only after a run", () => {
    expect(labels("steps.summary.", 2)).toEqual([]);
    expect(labels("steps.summary.", 2, { testOutputs: { summary: { open: 2, titles: ["a"] } } })).toEqual(["steps.summary.open", "steps.summary.titles"]);
    const [step] = listPlaceholderSuggestions(contextAt(2, { testOutputs: { summary: { open: 2 } } }), "steps.sum");
    expect(step?.hint).toBe("object · step 2, last test run");
  });

  it("shows the fields of the last test request under a free-form body and query, without warning about others", () => {
    const testRequest = { body: { name: "Ann", address: { city: "Oslo" } }, query: { page: "2" } };
    expect(labels("body.", 0, { testRequest })).toEqual(["body.name", "body.address"]);
    expect(labels("body.address.", 0, { testRequest })).toEqual(["body.address.city"]);
    expect(labels("trigger.n", 0, { testRequest })).toEqual(["trigger.name"]);
    expect(labels("query.", 0, { testRequest })).toEqual(["query.page"]);
    expect(problems("{{body.other}} {{query.q}}", 0, { testRequest })).toEqual([]);
    // Automations have no request: a test request is not theirs to show.
    expect(labels("body.", 0, { testRequest, owner: { kind: "automation", trigger: { type: "manual" } } })).toEqual([]);
  });

  it("offers the auth schema's fields under user and the trigger's fields in automations", () => {
    expect(labels("user.d", 0, { owner: { kind: "endpoint", auth: "end_user", authSchema: "members" } })).toEqual(["user.displayName"]);
    expect(labels("trigger.", 0, { owner: { kind: "automation", trigger: { type: "schedule" } } })).toEqual(["trigger.scheduledAt"]);
    expect(labels("trigger.record.st", 0, { owner: { kind: "automation", trigger: { type: "record", schema: "tickets" } } })).toEqual(["trigger.record.status"]);
  });

  it("offers nothing for later steps, unknown paths or text that cannot be a path", () => {
    expect(labels("steps.closed.", 1)).toEqual([]);
    expect(labels("steps.nope.", 1)).toEqual([]);
    expect(labels("body.", 1)).toEqual([]);
    expect(labels("steps. x", 1)).toEqual([]);
  });
});

describe("describeShape", () => {
  it("names lists by what they hold", () => {
    expect(describeShape({ kind: "array", items: { kind: "object", fields: new Map() } })).toBe("list of objects");
    expect(describeShape({ kind: "array", items: { kind: "text" } })).toBe("list of texts");
    expect(describeShape({ kind: "array", items: { kind: "text", label: "email" } })).toBe("list of email values");
    expect(describeShape({ kind: "array", items: { kind: "unknown" } })).toBe("list");
  });
});
