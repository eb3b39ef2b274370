import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRuntime, recordTriggerKey } from "@/lib/endpoints/invoke/project-runtime";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import { projectApi, type ApiAnswer } from "@/test/support/project-api";

/** The automations management API: CRUD of every trigger type, defaults, export/import, runtime refresh. */
type Json = Record<string, unknown>;
interface Automation {
  id: string;
  projectId: string;
  name: string;
  enabled: boolean;
  trigger: Json;
  steps: Json[];
  retry: { attempts: number; backoffSeconds: number };
  version: number;
  createdAt: string;
  updatedAt: string;
}

let server: RouteServer;
let fixture: ProjectFixture;
let key: string;

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture("Automations");
  key = await fixture.keyFor(["automations.read", "automations.write"]);
  await createTicketSchemas(fixture.projectId);
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function call<T = Json>(method: string, path: string, body?: unknown, projectId = fixture.projectId, auth = key): Promise<ApiAnswer<T>> {
  return projectApi(server, { projectId }, { key: auth }).call<T>(method, path, body);
}

async function create(definition: unknown, projectId = fixture.projectId, auth = key): Promise<Automation> {
  const answer = await call<Automation>("POST", "/automations", definition, projectId, auth);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

const notifyStep = { type: "webhook", name: "notify", url: "https://hooks.example/tickets", headers: { "x-token": "{{secrets.HOOK_TOKEN}}" } };
const storeStep = { type: "create", name: "stored", schema: "tickets", values: { title: "{{trigger.fields.subject}}", status: "open" } };

const contactForm = {
  name: "Contact form",
  trigger: { type: "form", form: "contact", allowedOrigins: ["https://shop.example"], honeypot: "website", redirectUrl: "https://shop.example/thanks" },
  steps: [storeStep],
  retry: { attempts: 2, backoffSeconds: 60 },
};
const closedTickets = {
  name: "Closed tickets",
  trigger: {
    type: "record",
    schema: "tickets",
    events: ["update"],
    condition: { checks: [{ left: "{{trigger.record.status}}", operator: "equals", right: "closed" }] },
  },
  steps: [notifyStep],
};
const nightly = { name: "Nightly digest", trigger: { type: "schedule", cron: "0 3 * * *", timezone: "Europe/Berlin" }, steps: [] };
const manual = { name: "Backfill", trigger: { type: "manual" } };

describe("automations: create, read, list", () => {
  it("creates each trigger type with its defaults filled in", async () => {
    const form = await create(contactForm);
    expect(form).toMatchObject({
      projectId: fixture.projectId,
      name: "Contact form",
      enabled: true,
      trigger: contactForm.trigger,
      retry: { attempts: 2, backoffSeconds: 60 },
      version: 1,
    });
    expect(form.id).toMatch(/^aut_/);
    expect(form.steps[0]).toMatchObject({ type: "create", name: "stored", schema: "tickets", enabled: true, continueOnError: false });

    const record = await create(closedTickets);
    expect(record.trigger).toEqual({ ...closedTickets.trigger, condition: { checks: closedTickets.trigger.condition.checks, combinator: "all" } });
    expect(record.retry).toEqual({ attempts: 0, backoffSeconds: 30 });

    const schedule = await create({ ...nightly, trigger: { type: "schedule", cron: "*/15 * * * *" } });
    expect(schedule.trigger).toEqual({ type: "schedule", cron: "*/15 * * * *", timezone: "UTC" });

    const bare = await create(manual);
    expect(bare).toMatchObject({ trigger: { type: "manual" }, steps: [], enabled: true, retry: { attempts: 0, backoffSeconds: 30 } });

    const minimalForm = await create({ name: "Newsletter", trigger: { type: "form", form: "newsletter" } });
    expect(minimalForm.trigger).toEqual({ type: "form", form: "newsletter", allowedOrigins: [], honeypot: null, redirectUrl: null });

    // A save also answers its placeholder warnings (none here); a read answers the definition alone.
    expect(form).toHaveProperty("warnings", []);
    const read = await call<Automation>("GET", `/automations/${form.id}`);
    expect(read.status).toBe(200);
    const { warnings: _warnings, ...saved } = form as Automation & { warnings?: unknown };
    expect(read.body).toEqual(saved);
  });

  it("lists the project's automations ordered by name", async () => {
    const listed = await call<{ data: Automation[] }>("GET", "/automations");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((automation) => automation.name)).toEqual(["Backfill", "Closed tickets", "Contact form", "Newsletter", "Nightly digest"]);
  });
});

describe("automations: update and delete", () => {
  it("patches partially, keeps the rest, and counts versions", async () => {
    const { body } = await call<{ data: Automation[] }>("GET", "/automations");
    const form = body.data.find((automation) => automation.name === "Contact form")!;
    const disabled = await call<Automation>("PATCH", `/automations/${form.id}`, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, version: 2, retry: { attempts: 2, backoffSeconds: 60 }, trigger: contactForm.trigger, name: "Contact form" });
    expect(disabled.body.steps).toEqual(form.steps);
    expect(Date.parse(disabled.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(form.updatedAt));

    // A trigger given replaces the old one whole, its defaults filled in again.
    const moved = await call<Automation>("PATCH", `/automations/${form.id}`, { trigger: { type: "form", form: "contact-us" }, enabled: true });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ enabled: true, version: 3, trigger: { type: "form", form: "contact-us", allowedOrigins: [], honeypot: null, redirectUrl: null } });

    // A new trigger type frees the form slug for another automation.
    const manualNow = await call<Automation>("PATCH", `/automations/${form.id}`, { trigger: { type: "manual" }, name: "Contact (manual)" });
    expect(manualNow.body).toMatchObject({ name: "Contact (manual)", trigger: { type: "manual" }, version: 4 });
    await create({ name: "Contact again", trigger: { type: "form", form: "contact-us" } });
  });

  it("deletes with 204, after which the automation is gone", async () => {
    const temporary = await create({ name: "Temporary", trigger: { type: "manual" } });
    const deleted = await fetch(`${server.url}/api/projects/${fixture.projectId}/automations/${temporary.id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await call("GET", `/automations/${temporary.id}`)).status).toBe(404);
    expect((await call("DELETE", `/automations/${temporary.id}`)).status).toBe(404);
  });
});

describe("automations: every change reaches the project runtime at once", () => {
  it("groups enabled automations by trigger and follows creates, disables, edits and deletes", async () => {
    const project = await createProjectFixture("Runtime");
    const projectKey = await project.keyFor(["automations.read", "automations.write"]);
    await createTicketSchemas(project.projectId);
    const runtime = async () => (await getProjectRuntime(project.projectId))!.automations;
    expect((await runtime()).byId.size).toBe(0);

    const form = await create(contactForm, project.projectId, projectKey);
    const record = await create({ ...closedTickets, trigger: { ...closedTickets.trigger, events: ["create", "update"] } }, project.projectId, projectKey);
    const schedule = await create(nightly, project.projectId, projectKey);
    const bare = await create(manual, project.projectId, projectKey);
    let grouped = await runtime();
    expect([...grouped.byId.keys()].sort()).toEqual([form.id, record.id, schedule.id, bare.id].sort());
    expect(grouped.forms.get("contact")?.definition.id).toBe(form.id);
    expect(grouped.records.get(recordTriggerKey("tickets", "create"))?.map((automation) => automation.definition.id)).toEqual([record.id]);
    expect(grouped.records.get(recordTriggerKey("tickets", "update"))?.map((automation) => automation.definition.id)).toEqual([record.id]);
    expect(grouped.records.get(recordTriggerKey("tickets", "delete"))).toBeUndefined();
    expect(grouped.schedules.map((automation) => automation.definition.id)).toEqual([schedule.id]);
    expect(grouped.byId.get(record.id)?.steps?.[0]).toMatchObject({ type: "webhook", name: "notify" });

    const patch = (id: string, body: unknown) => call("PATCH", `/automations/${id}`, body, project.projectId, projectKey);
    expect((await patch(form.id, { enabled: false })).status).toBe(200);
    expect((await patch(schedule.id, { trigger: { type: "schedule", cron: "0 4 * * *", timezone: "Europe/Berlin" } })).status).toBe(200);
    expect((await patch(record.id, { trigger: { ...closedTickets.trigger, events: ["delete"] } })).status).toBe(200);
    grouped = await runtime();
    // A disabled automation stays known by id (manual runs) but answers no trigger.
    expect(grouped.forms.size).toBe(0);
    expect(grouped.byId.get(form.id)?.definition).toMatchObject({ enabled: false, version: 2 });
    expect(grouped.schedules[0]?.definition.trigger).toEqual({ type: "schedule", cron: "0 4 * * *", timezone: "Europe/Berlin" });
    expect([...grouped.records.keys()]).toEqual([recordTriggerKey("tickets", "delete")]);

    expect((await call("DELETE", `/automations/${bare.id}`, undefined, project.projectId, projectKey)).status).toBe(204);
    expect((await runtime()).byId.has(bare.id)).toBe(false);
  });
});

describe("automations: export and import", () => {
  it("round-trips a project's automations into another project and back, listing the secrets they use", async () => {
    const source = await createProjectFixture("Export source");
    const sourceKey = await source.keyFor(["automations.read", "automations.write"]);
    await createTicketSchemas(source.projectId);
    for (const definition of [contactForm, closedTickets, nightly, manual]) await create(definition, source.projectId, sourceKey);

    const exported = await fetch(`${server.url}/api/projects/${source.projectId}/automations/export`, { headers: { authorization: `Bearer ${sourceKey}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename=".+-automations\.json"$/);
    const document = (await exported.json()) as { format: string; version: number; automations: Json[]; secrets: string[] };
    expect(document).toMatchObject({ format: "flowpoint.automations", version: 1, secrets: ["HOOK_TOKEN"] });
    expect(document.automations.map((automation) => automation.name)).toEqual(["Backfill", "Closed tickets", "Contact form", "Nightly digest"]);
    for (const automation of document.automations) {
      for (const serverField of ["id", "projectId", "version", "createdAt", "updatedAt"]) expect(automation).not.toHaveProperty(serverField);
    }

    const target = await createProjectFixture("Import target");
    const targetKey = await target.keyFor(["automations.read", "automations.write"]);
    await createTicketSchemas(target.projectId);
    const imported = await call("POST", "/automations/import", document, target.projectId, targetKey);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toEqual({ created: 4, updated: 0, secrets: { required: ["HOOK_TOKEN"], missing: ["HOOK_TOKEN"] } });
    const reexported = await call<typeof document>("GET", "/automations/export", undefined, target.projectId, targetKey);
    expect(reexported.body.automations).toEqual(document.automations);
    expect((await getProjectRuntime(target.projectId))!.automations.forms.has("contact")).toBe(true);

    // Importing again matches by name: everything is replaced, nothing duplicated.
    const edited = { ...document, automations: document.automations.map((automation) => (automation.name === "Backfill" ? { ...automation, enabled: false } : automation)) };
    const again = await call("POST", "/automations/import", edited, target.projectId, targetKey);
    expect(again.body).toMatchObject({ created: 0, updated: 4 });
    const listed = await call<{ data: Automation[] }>("GET", "/automations", undefined, target.projectId, targetKey);
    expect(listed.body.data).toHaveLength(4);
    expect(listed.body.data.map((automation) => [automation.name, automation.version, automation.enabled])).toEqual([
      ["Backfill", 2, false],
      ["Closed tickets", 2, true],
      ["Contact form", 2, true],
      ["Nightly digest", 2, true],
    ]);
    const targetRuntime = (await getProjectRuntime(target.projectId))!.automations;
    expect([...targetRuntime.byId.values()].map((automation) => [automation.definition.name, automation.definition.enabled]).sort()).toEqual([
      ["Backfill", false],
      ["Closed tickets", true],
      ["Contact form", true],
      ["Nightly digest", true],
    ]);
  });
});
