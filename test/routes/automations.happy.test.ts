import { describe, expect } from "vitest";
import { getProjectRuntime, recordTriggerKey } from "@/lib/endpoints/invoke/project-runtime";
import { createProjectFixture } from "@/test/fixtures";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

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

/** The client with a key that may read and write automations, on a project with the ticket schemas. */
const it = routeTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  await createTicketSchemas(project.projectId);
  return ownerApi.with({ credentials: { key: await project.keyFor(["automations.read", "automations.write"]) } });
});

/** Creates an automation through `api`, which must answer 201. */
async function create(api: ProjectApi, definition: unknown): Promise<Automation> {
  const answer = await api.call<Automation>("POST", "/automations", definition);
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
  it("creates each trigger type with its defaults filled in", async ({ project, api }) => {
    const form = await create(api, contactForm);
    expect(form).toMatchObject({
      projectId: project.projectId,
      name: "Contact form",
      enabled: true,
      trigger: contactForm.trigger,
      retry: { attempts: 2, backoffSeconds: 60 },
      version: 1,
    });
    expect(form.id).toMatch(/^aut_/);
    expect(form.steps[0]).toMatchObject({ type: "create", name: "stored", schema: "tickets", enabled: true, continueOnError: false });

    const record = await create(api, closedTickets);
    expect(record.trigger).toEqual({ ...closedTickets.trigger, condition: { checks: closedTickets.trigger.condition.checks, combinator: "all" } });
    expect(record.retry).toEqual({ attempts: 0, backoffSeconds: 30 });

    const schedule = await create(api, { ...nightly, trigger: { type: "schedule", cron: "*/15 * * * *" } });
    expect(schedule.trigger).toEqual({ type: "schedule", cron: "*/15 * * * *", timezone: "UTC" });

    const bare = await create(api, manual);
    expect(bare).toMatchObject({ trigger: { type: "manual" }, steps: [], enabled: true, retry: { attempts: 0, backoffSeconds: 30 } });

    const minimalForm = await create(api, { name: "Newsletter", trigger: { type: "form", form: "newsletter" } });
    expect(minimalForm.trigger).toEqual({ type: "form", form: "newsletter", allowedOrigins: [], honeypot: null, redirectUrl: null });

    // A save also answers its placeholder warnings (none here); a read answers the definition alone.
    expect(form).toHaveProperty("warnings", []);
    const read = await api.call<Automation>("GET", `/automations/${form.id}`);
    expect(read.status).toBe(200);
    const { warnings: _warnings, ...saved } = form as Automation & { warnings?: unknown };
    expect(read.body).toEqual(saved);
  });

  it("lists the project's automations ordered by name", async ({ api }) => {
    const listed = await api.call<{ data: Automation[] }>("GET", "/automations");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((automation) => automation.name)).toEqual(["Backfill", "Closed tickets", "Contact form", "Newsletter", "Nightly digest"]);
  });
});

describe("automations: update and delete", () => {
  it("patches partially, keeps the rest, and counts versions", async ({ api }) => {
    const { body } = await api.call<{ data: Automation[] }>("GET", "/automations");
    const form = body.data.find((automation) => automation.name === "Contact form")!;
    const disabled = await api.call<Automation>("PATCH", `/automations/${form.id}`, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, version: 2, retry: { attempts: 2, backoffSeconds: 60 }, trigger: contactForm.trigger, name: "Contact form" });
    expect(disabled.body.steps).toEqual(form.steps);
    expect(Date.parse(disabled.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(form.updatedAt));

    // A trigger given replaces the old one whole, its defaults filled in again.
    const moved = await api.call<Automation>("PATCH", `/automations/${form.id}`, { trigger: { type: "form", form: "contact-us" }, enabled: true });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ enabled: true, version: 3, trigger: { type: "form", form: "contact-us", allowedOrigins: [], honeypot: null, redirectUrl: null } });

    // A new trigger type frees the form slug for another automation.
    const manualNow = await api.call<Automation>("PATCH", `/automations/${form.id}`, { trigger: { type: "manual" }, name: "Contact (manual)" });
    expect(manualNow.body).toMatchObject({ name: "Contact (manual)", trigger: { type: "manual" }, version: 4 });
    await create(api, { name: "Contact again", trigger: { type: "form", form: "contact-us" } });
  });

  it("deletes with 204, after which the automation is gone", async ({ api }) => {
    const temporary = await create(api, { name: "Temporary", trigger: { type: "manual" } });
    const deleted = await api.fetch(`/automations/${temporary.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await api.call("GET", `/automations/${temporary.id}`)).status).toBe(404);
    expect((await api.call("DELETE", `/automations/${temporary.id}`)).status).toBe(404);
  });
});

describe("automations: every change reaches the project runtime at once", () => {
  it("groups enabled automations by trigger and follows creates, disables, edits and deletes", async ({ server }) => {
    const project = await createProjectFixture("Runtime");
    const api = projectApi(server, project, { key: await project.keyFor(["automations.read", "automations.write"]) });
    await createTicketSchemas(project.projectId);
    const runtime = async () => (await getProjectRuntime(project.projectId))!.automations;
    expect((await runtime()).byId.size).toBe(0);

    const form = await create(api, contactForm);
    const record = await create(api, { ...closedTickets, trigger: { ...closedTickets.trigger, events: ["create", "update"] } });
    const schedule = await create(api, nightly);
    const bare = await create(api, manual);
    let grouped = await runtime();
    expect([...grouped.byId.keys()].sort()).toEqual([form.id, record.id, schedule.id, bare.id].sort());
    expect(grouped.forms.get("contact")?.definition.id).toBe(form.id);
    expect(grouped.records.get(recordTriggerKey("tickets", "create"))?.map((automation) => automation.definition.id)).toEqual([record.id]);
    expect(grouped.records.get(recordTriggerKey("tickets", "update"))?.map((automation) => automation.definition.id)).toEqual([record.id]);
    expect(grouped.records.get(recordTriggerKey("tickets", "delete"))).toBeUndefined();
    expect(grouped.schedules.map((automation) => automation.definition.id)).toEqual([schedule.id]);
    expect(grouped.byId.get(record.id)?.steps?.[0]).toMatchObject({ type: "webhook", name: "notify" });

    const patch = (id: string, body: unknown) => api.call("PATCH", `/automations/${id}`, body);
    expect((await patch(form.id, { enabled: false })).status).toBe(200);
    expect((await patch(schedule.id, { trigger: { type: "schedule", cron: "0 4 * * *", timezone: "Europe/Berlin" } })).status).toBe(200);
    expect((await patch(record.id, { trigger: { ...closedTickets.trigger, events: ["delete"] } })).status).toBe(200);
    grouped = await runtime();
    // A disabled automation stays known by id (manual runs) but answers no trigger.
    expect(grouped.forms.size).toBe(0);
    expect(grouped.byId.get(form.id)?.definition).toMatchObject({ enabled: false, version: 2 });
    expect(grouped.schedules[0]?.definition.trigger).toEqual({ type: "schedule", cron: "0 4 * * *", timezone: "Europe/Berlin" });
    expect([...grouped.records.keys()]).toEqual([recordTriggerKey("tickets", "delete")]);

    expect((await api.call("DELETE", `/automations/${bare.id}`)).status).toBe(204);
    expect((await runtime()).byId.has(bare.id)).toBe(false);
  });
});

describe("automations: export and import", () => {
  it("round-trips a project's automations into another project and back, listing the secrets they use", async ({ server }) => {
    const source = await createProjectFixture("Export source");
    const sourceApi = projectApi(server, source, { key: await source.keyFor(["automations.read", "automations.write"]) });
    await createTicketSchemas(source.projectId);
    for (const definition of [contactForm, closedTickets, nightly, manual]) await create(sourceApi, definition);

    const exported = await sourceApi.fetch("/automations/export");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename=".+-automations\.json"$/);
    const document = (await exported.json()) as { format: string; version: number; automations: Json[]; secrets: string[] };
    expect(document).toMatchObject({ format: "flowpoint.automations", version: 1, secrets: ["HOOK_TOKEN"] });
    expect(document.automations.map((automation) => automation.name)).toEqual(["Backfill", "Closed tickets", "Contact form", "Nightly digest"]);
    for (const automation of document.automations) {
      for (const serverField of ["id", "projectId", "version", "createdAt", "updatedAt"]) expect(automation).not.toHaveProperty(serverField);
    }

    const target = await createProjectFixture("Import target");
    const targetApi = projectApi(server, target, { key: await target.keyFor(["automations.read", "automations.write"]) });
    await createTicketSchemas(target.projectId);
    const imported = await targetApi.call("POST", "/automations/import", document);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toEqual({ created: 4, updated: 0, secrets: { required: ["HOOK_TOKEN"], missing: ["HOOK_TOKEN"] } });
    const reexported = await targetApi.call<typeof document>("GET", "/automations/export");
    expect(reexported.body.automations).toEqual(document.automations);
    expect((await getProjectRuntime(target.projectId))!.automations.forms.has("contact")).toBe(true);

    // Importing again matches by name: everything is replaced, nothing duplicated.
    const edited = { ...document, automations: document.automations.map((automation) => (automation.name === "Backfill" ? { ...automation, enabled: false } : automation)) };
    const again = await targetApi.call("POST", "/automations/import", edited);
    expect(again.body).toMatchObject({ created: 0, updated: 4 });
    const listed = await targetApi.call<{ data: Automation[] }>("GET", "/automations");
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
