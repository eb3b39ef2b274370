import { describe, expect } from "vitest";
import { createSchema } from "@/lib/schemas/create-schema";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture } from "@/test/fixtures";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

type Json = Record<string, unknown>;

/** The client with a key for automations, on a project with the ticket schemas, a `seo` component and a `members` auth schema. */
const it = routeTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  const { projectId } = project;
  await createTicketSchemas(projectId);
  const store = await getProjectRecordStore({ projectId });
  await createSchema({ projectId, store, definition: { name: "seo", kind: "component", fields: [{ name: "title", type: "string" }] } });
  await createSchema({ projectId, store, definition: { name: "members", kind: "auth", fields: [] } });
  return ownerApi.with({ credentials: { key: await project.keyFor(["automations.read", "automations.write"]) } });
});

async function issuePaths(api: ProjectApi, definition: unknown): Promise<string[]> {
  const answer = await api.call("POST", "/automations", definition);
  expect(answer.status, JSON.stringify(definition)).toBe(422);
  expect(answer.body.error).toBe("invalid automation");
  return answer.body.issues!.map((issue) => issue.path);
}

const manual = { type: "manual" };
const schedule = (cron: string, timezone?: string) => ({ type: "schedule", cron, ...(timezone === undefined ? {} : { timezone }) });
const form = (extra: Json = {}) => ({ type: "form", form: "contact", ...extra });
const record = (extra: Json = {}) => ({ type: "record", schema: "tickets", events: ["create"], ...extra });
const check = (left: unknown, right: unknown = "closed") => ({ condition: { checks: [{ left, operator: "equals", right }] } });

describe("saving an automation names each problem with its path (422)", () => {
  const cases: Array<[string, Json, string]> = [
    ["no name", { name: "", trigger: manual }, "name"],
    ["no trigger", { name: "A" }, "trigger"],
    ["an unknown trigger type", { name: "A", trigger: { type: "webhook" } }, "trigger.type"],
    ["an unknown top-level field", { name: "A", trigger: manual, owner: "me" }, ""],
    ["an unknown trigger field", { name: "A", trigger: { type: "manual", cron: "* * * * *" } }, "trigger"],
    ["a cron value out of range", { name: "A", trigger: schedule("61 * * * *") }, "trigger.cron"],
    ["a cron expression with seconds", { name: "A", trigger: schedule("0 */5 * * * *") }, "trigger.cron"],
    ["a cron expression with 4 fields", { name: "A", trigger: schedule("*/5 * * *") }, "trigger.cron"],
    ["a cron macro", { name: "A", trigger: schedule("@hourly") }, "trigger.cron"],
    ["a cron date that never comes", { name: "A", trigger: schedule("0 0 30 2 *") }, "trigger.cron"],
    ["a hashed cron minute", { name: "A", trigger: schedule("H * * * *") }, "trigger.cron"],
    ["an unknown time zone", { name: "A", trigger: schedule("0 9 * * *", "Mars/Olympus") }, "trigger.timezone"],
    ["a UTC offset instead of a zone", { name: "A", trigger: schedule("0 9 * * *", "+02:00") }, "trigger.timezone"],
    ["an unknown record schema", { name: "A", trigger: record({ schema: "nope" }) }, "trigger.schema"],
    ["a component schema", { name: "A", trigger: record({ schema: "seo" }) }, "trigger.schema"],
    ["no record events", { name: "A", trigger: record({ events: [] }) }, "trigger.events"],
    ["an unknown record event", { name: "A", trigger: record({ events: ["read"] }) }, "trigger.events.0"],
    ["the same event twice", { name: "A", trigger: record({ events: ["create", "create"] }) }, "trigger.events"],
    ["a condition without checks", { name: "A", trigger: record({ condition: { checks: [] } }) }, "trigger.condition.checks"],
    ["a condition reading the request body", { name: "A", trigger: record(check("{{body.status}}")) }, "trigger.condition.checks.0.left"],
    ["a condition reading step outputs", { name: "A", trigger: record(check("{{trigger.record.status}}", "{{steps.x}}")) }, "trigger.condition.checks.0.right"],
    ["a malformed placeholder in a condition", { name: "A", trigger: record(check("{{trigger.record. status}}")) }, "trigger.condition.checks.0.left"],
    ["unbalanced braces in a condition", { name: "A", trigger: record(check("{{trigger.record.status")) }, "trigger.condition.checks.0.left"],
    [
      "a binary operator without a right operand",
      { name: "A", trigger: record({ condition: { checks: [{ left: "{{trigger.event}}", operator: "equals" }] } }) },
      "trigger.condition.checks.0.right",
    ],
    ["a secret in a condition", { name: "A", trigger: record(check("{{secrets.API_TOKEN}}")) }, "trigger.condition.checks.0.left"],
    ["a form slug with capitals", { name: "A", trigger: form({ form: "Contact Us" }) }, "trigger.form"],
    ["a javascript: redirect", { name: "A", trigger: form({ redirectUrl: "javascript:alert(document.cookie)" }) }, "trigger.redirectUrl"],
    ["a data: redirect", { name: "A", trigger: form({ redirectUrl: "data:text/html,<script>alert(1)</script>" }) }, "trigger.redirectUrl"],
    ["a relative redirect", { name: "A", trigger: form({ redirectUrl: "/thanks" }) }, "trigger.redirectUrl"],
    ["a secret in the redirect", { name: "A", trigger: form({ redirectUrl: "https://shop.example/thanks?t={{secrets.API_TOKEN}}" }) }, "trigger.redirectUrl"],
    ["an origin with a path", { name: "A", trigger: form({ allowedOrigins: ["https://shop.example/form"] }) }, "trigger.allowedOrigins.0"],
    ["a honeypot that is no field name", { name: "A", trigger: form({ honeypot: "your website?" }) }, "trigger.honeypot"],
    ["a honeypot over 100 characters", { name: "A", trigger: form({ honeypot: "x".repeat(101) }) }, "trigger.honeypot"],
    ["a secret in the name", { name: "Sync {{secrets.API_TOKEN}}", trigger: manual }, "name"],
    ["retries over the limit", { name: "A", trigger: manual, retry: { attempts: 6 } }, "retry.attempts"],
    ["a negative retry count", { name: "A", trigger: manual, retry: { attempts: -1 } }, "retry.attempts"],
    ["a backoff over an hour", { name: "A", trigger: manual, retry: { attempts: 1, backoffSeconds: 3601 } }, "retry.backoffSeconds"],
    ["21 steps", { name: "A", trigger: manual, steps: Array.from({ length: 21 }, () => ({ type: "transform", expression: "trigger" })) }, "steps"],
    ["a query limit over 100", { name: "A", trigger: manual, steps: [{ type: "query", schema: "tickets", limit: 101 }] }, "steps.0.limit"],
    ["a step on an unknown schema", { name: "A", trigger: manual, steps: [{ type: "query", schema: "nope" }] }, "steps.0.schema"],
    ["a step on a component schema", { name: "A", trigger: manual, steps: [{ type: "create", schema: "seo", values: {} }] }, "steps.0.schema"],
    ["a filter on an unknown field", { name: "A", trigger: manual, steps: [{ type: "query", schema: "tickets", filters: "colour=red" }] }, "steps.0.filters"],
    ["a JMESPath that does not compile", { name: "A", trigger: manual, steps: [{ type: "transform", expression: "trigger.record[?status=='x'" }] }, "steps.0.expression"],
    [
      "a secret outside an outbound step",
      { name: "A", trigger: manual, steps: [{ type: "create", schema: "tickets", values: { title: "{{secrets.API_TOKEN}}" } }] },
      "steps.0.values.title",
    ],
    ["a file: URL in an HTTP step", { name: "A", trigger: manual, steps: [{ type: "http", method: "GET", url: "file:///etc/passwd" }] }, "steps.0.url"],
  ];

  it.for(cases)("%s", async ([, definition, path], { api }) => {
    expect(await issuePaths(api, definition)).toContain(path);
  });

  it("accepts the auth schema as a record trigger and a condition that reads the trigger", async ({ api }) => {
    const answer = await api.call("POST", "/automations", {
      name: "Members",
      trigger: record({ schema: "members", ...check("{{ trigger.record.email }}", "{{trigger.previous.email}}") }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  });

  it("names every problem of one definition at once", async ({ api }) => {
    const paths = await issuePaths(api, { name: "A", trigger: schedule("61 * * * *", "Nowhere/City"), steps: [{ type: "query", schema: "tickets", limit: 0 }] });
    expect(paths).toEqual(expect.arrayContaining(["trigger.cron", "trigger.timezone", "steps.0.limit"]));
  });

  it("refuses a body that is not JSON with 400 and an empty body with 422", async ({ api }) => {
    const malformed = await api.call("POST", "/automations", '{"name": ');
    expect(malformed.status).toBe(400);
    expect((await api.call("POST", "/automations", "")).status).toBe(422);
    expect((await api.call("POST", "/automations", "[]")).status).toBe(422);
  });
});

describe("form slugs are unique per project (409)", () => {
  it("refuses a second automation on a taken form, by create and by update", async ({ api }) => {
    const first = await api.call("POST", "/automations", { name: "Signup", trigger: form({ form: "signup" }) });
    expect(first.status).toBe(201);
    const duplicate = await api.call("POST", "/automations", { name: "Signup two", trigger: form({ form: "signup" }) });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ field: "trigger.form", issues: [{ path: "trigger.form" }] });
    expect(duplicate.body.error).toMatch(/signup/);

    const other = await api.call("POST", "/automations", { name: "Other", trigger: form({ form: "other-form" }) });
    expect(other.status).toBe(201);
    const moved = await api.call("PATCH", `/automations/${other.body.id as string}`, { trigger: form({ form: "signup" }) });
    expect(moved.status).toBe(409);
    expect(moved.body.issues).toEqual([{ path: "trigger.form", message: expect.any(String) as unknown }]);
    const unchanged = await api.call("GET", `/automations/${other.body.id as string}`);
    expect(unchanged.body).toMatchObject({ version: 1, trigger: { form: "other-form" } });

    // The same automation may keep its own slug on update, and other projects have slugs of their own.
    expect((await api.call("PATCH", `/automations/${first.body.id as string}`, { name: "Sign up", trigger: form({ form: "signup" }) })).status).toBe(200);
    const elsewhere = await createProjectFixture("Elsewhere");
    const elsewhereKey = await elsewhere.keyFor(["automations.write"]);
    const theirs = await api
      .with({ projectId: elsewhere.projectId, credentials: { key: elsewhereKey } })
      .request("POST", "/automations", { name: "Signup", trigger: form({ form: "signup" }) });
    expect(theirs.status).toBe(201);
  });
});

describe("updates", () => {
  it("validate the merged definition and refuse unknown fields and server-assigned ones", async ({ api }) => {
    const created = await api.call("POST", "/automations", { name: "Hourly", trigger: schedule("0 * * * *") });
    const id = created.body.id as string;
    const cases: Array<[Json, string]> = [
      [{ trigger: { type: "schedule" } }, "trigger.cron"],
      [{ trigger: schedule("0 * * * *", "Atlantis/Capital") }, "trigger.timezone"],
      [{ trigger: record({ schema: "seo" }) }, "trigger.schema"],
      [{ steps: [{ type: "query", schema: "nope" }] }, "steps.0.schema"],
      [{ version: 7 }, ""],
      [{ id: "aut_other" }, ""],
      [{ enabled: "yes" }, "enabled"],
      [{ retry: { attempts: 9 } }, "retry.attempts"],
    ];
    for (const [patch, path] of cases) {
      const answer = await api.call("PATCH", `/automations/${id}`, patch);
      expect(answer.status, JSON.stringify(patch)).toBe(422);
      expect(
        answer.body.issues!.map((issue) => issue.path),
        JSON.stringify(patch),
      ).toContain(path);
    }
    const unchanged = await api.call("GET", `/automations/${id}`);
    expect(unchanged.body).toMatchObject({ version: 1, trigger: { type: "schedule", cron: "0 * * * *", timezone: "UTC" } });
  });
});

describe("unknown automations (404)", () => {
  it("answers 404 automation not found on every route that takes an id", async ({ api }) => {
    for (const [method, body] of [["GET"], ["PATCH", { enabled: false }], ["DELETE"]] as const) {
      const answer = await api.call(method, "/automations/aut_doesnotexist", body);
      expect(answer.status, method).toBe(404);
      expect(answer.body).toEqual({ error: "automation not found", code: "not_found" });
    }
  });
});

describe("imports", () => {
  it("validate every automation first and write nothing when one is invalid", async ({ api }) => {
    const project = await createProjectFixture("Import errors");
    const projectKey = await project.keyFor(["automations.read", "automations.write"]);
    const theirs = api.with({ projectId: project.projectId, credentials: { key: projectKey } });
    const post = (document: unknown) => theirs.call("POST", "/automations/import", document);
    const invalid = await post({
      automations: [
        { name: "Fine", trigger: manual },
        { name: "Broken", trigger: schedule("* * *") },
        { name: "Steps", trigger: manual, steps: [{ type: "query", schema: "nope" }] },
      ],
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toBe("invalid import document");
    expect(invalid.body.issues!.map((issue) => issue.path)).toEqual(["automations.1.trigger.cron", "automations.2.steps.0.schema"]);

    const duplicates = await post({
      automations: [
        { name: "Twice", trigger: form({ form: "a" }) },
        { name: "Twice", trigger: form({ form: "a" }) },
      ],
    });
    expect(duplicates.status).toBe(422);
    expect(duplicates.body.issues!.map((issue) => issue.path)).toEqual(["automations.1.name", "automations.1.trigger.form"]);

    expect((await post({ automations: "all" })).status).toBe(422);
    expect((await post({ format: "flowpoint.endpoints", automations: [] })).body.issues!.map((issue) => issue.path)).toEqual(["format"]);

    // A form slug held by another automation of the project: 409 naming the entry, nothing written.
    expect((await post({ automations: [{ name: "Holder", trigger: form({ form: "held" }) }] })).status).toBe(200);
    const taken = await post({
      automations: [
        { name: "New one", trigger: manual },
        { name: "Taker", trigger: form({ form: "held" }) },
      ],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.issues).toEqual([{ path: "automations.1.trigger.form", message: expect.any(String) as unknown }]);
    const listed = await theirs.call<{ data: Json[] }>("GET", "/automations");
    expect(listed.body.data.map((automation) => automation.name)).toEqual(["Holder"]);
  });
});
