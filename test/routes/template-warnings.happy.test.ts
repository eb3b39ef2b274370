import { describe, expect } from "vitest";
import { composedReadEndpoint, createTicketSchemas, validatedIntakeEndpoint } from "@/test/endpoint-fixtures";
import { routeTest as it } from "@/test/support/route-test";

type Warning = { path: string; placeholder: string; message: string };
type Saved = { id: string; version: number; warnings: Warning[]; steps: unknown[] };

describe("endpoint placeholder warnings (management API)", () => {
  it("saves a definition whose placeholders cannot resolve and answers them as warnings, on create and update", async ({ project, ownerApi }) => {
    await createTicketSchemas(project.projectId);
    const definition = {
      name: "Latest ticket",
      method: "GET",
      slug: "latest-ticket",
      steps: [
        { type: "query", name: "tickets", schema: "tickets", filters: "status={{query.status}}\nowner={{steps.later.owner}}", limit: 1 },
        { type: "transform", name: "later", expression: "steps.tickets[0]" },
      ],
      response: { body: '{"title": "{{steps.tickets.0.titel}}", "any": {{steps.later.whatever}}}', headers: { "X-User": "{{user.email}}" } },
    };
    const created = await ownerApi.call<Saved>("POST", "/endpoints", definition);
    expect(created.status, created.text).toBe(201);
    expect(created.body.id).toMatch(/^ep_/);
    expect(created.body.warnings).toEqual([
      {
        path: "steps.0.filters",
        placeholder: "{{steps.later.owner}}",
        message: "{{steps.later.owner}} will not resolve: step 2 (later) runs after this one, so its output does not exist yet",
      },
      {
        path: "response.body",
        placeholder: "{{steps.tickets.0.titel}}",
        message: '{{steps.tickets.0.titel}} will not resolve: steps.tickets.0 (tickets record) has no field "titel"',
      },
      {
        path: "response.headers.X-User",
        placeholder: "{{user.email}}",
        message: "{{user.email}} will not resolve: this endpoint has no signed-in user (auth is public); user is set on end-user endpoints",
      },
    ]);

    // Saved as written: the warnings did not block it, and reading it back carries no warnings field.
    const read = await ownerApi.call<Saved>("GET", `/endpoints/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.steps).toHaveLength(2);
    expect(read.body).not.toHaveProperty("warnings");

    const fixed = await ownerApi.call<Saved>("PATCH", `/endpoints/${created.body.id}`, {
      steps: [{ type: "query", name: "tickets", schema: "tickets", filters: "status={{query.status}}", limit: 1 }],
      response: { body: '{"title": "{{steps.tickets.0.title}}"}', headers: {} },
    });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body.version).toBe(2);
    expect(fixed.body.warnings).toEqual([]);

    const broken = await ownerApi.call<Saved>("PATCH", `/endpoints/${created.body.id}`, { response: { body: "{{steps.nope}}", headers: {} } });
    expect(broken.status, broken.text).toBe(200);
    expect(broken.body.version).toBe(3);
    expect(broken.body.warnings.map((warning) => [warning.path, warning.placeholder])).toEqual([["response.body", "{{steps.nope}}"]]);
  });

  it("answers no warnings for the specification's example flows", async ({ ownerApi }) => {
    for (const definition of [composedReadEndpoint, validatedIntakeEndpoint]) {
      const created = await ownerApi.call<Saved>("POST", "/endpoints", definition);
      expect(created.status, created.text).toBe(201);
      expect(created.body.warnings).toEqual([]);
    }
  });

  it("still refuses errors with 422 and no warnings in the way", async ({ ownerApi }) => {
    const refused = await ownerApi.call("POST", "/endpoints", {
      name: "Broken",
      method: "GET",
      slug: "broken-warnings",
      steps: [{ type: "query", name: "q", schema: "no_such_schema" }],
      response: { body: "{{steps.q.0.x}}" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.issues).toEqual([{ path: "steps.0.schema", message: 'the schema "no_such_schema" does not exist' }]);
    expect(refused.body).not.toHaveProperty("warnings");
  });
});

describe("automation placeholder warnings (management API)", () => {
  it("reads an automation's templates against its trigger and saves it with the warnings", async ({ ownerApi }) => {
    const created = await ownerApi.call<Saved>("POST", "/automations", {
      name: "Welcome",
      trigger: { type: "form", form: "welcome-warnings" },
      steps: [{ type: "email", to: "{{trigger.fields.email}}", subject: "Hello {{body.name}}", body: "Sent {{trigger.submittedAt}} from {{trigger.ipAddress}}" }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.warnings).toEqual([
      {
        path: "steps.0.subject",
        placeholder: "{{body.name}}",
        message: '{{body.name}} will not resolve: body (empty) has no field "name": an automation has no request: read what started it as {{trigger.…}}',
      },
      { path: "steps.0.body", placeholder: "{{trigger.ipAddress}}", message: '{{trigger.ipAddress}} will not resolve: trigger (form submission) has no field "ipAddress"' },
    ]);
    const read = await ownerApi.call<Saved>("GET", `/automations/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("warnings");
  });
});
