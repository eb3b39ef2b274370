import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { queueDueSchedules } from "@/lib/automations/schedule/queue-due-schedules";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture } from "@/test/fixtures";
import { createTicketSchemas, createTestRecord } from "@/test/endpoint-fixtures";
import { automationRunsAfterQuiet, waitForAutomationRuns } from "@/test/support/automation-runs";
import { setProcessEnv } from "@/test/support/process-env";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Automations started by each trigger, end to end over real HTTP: the run is queued (BullMQ on
 * Redis with REDIS_URL, in process without), runs in the background and is logged in the customer
 * database like an endpoint run.
 */
const it = routeTest
  /**
   * An upstream that answers slowly (runs that call it hold their project's slots for a while), let
   * through the outbound guard until the file ends; `calls` is what it saw: requests in flight now,
   * and the most at once (the runs holding slots).
   */
  .extend("slowUpstream", { scope: "file" }, async ({}, { onCleanup }) => {
    const calls = { inFlight: 0, mostAtOnce: 0 };
    const upstream = createServer((_request, response) => {
      calls.inFlight++;
      calls.mostAtOnce = Math.max(calls.mostAtOnce, calls.inFlight);
      setTimeout(() => {
        calls.inFlight--;
        response.end("{}");
      }, 300);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    const restoreEnv = setProcessEnv({ OUTBOUND_ALLOWED_HOSTS: [process.env.OUTBOUND_ALLOWED_HOSTS, `127.0.0.1:${port}`].filter(Boolean).join(",") });
    onCleanup(async () => {
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
      restoreEnv();
    });
    return { url: `http://127.0.0.1:${port}/slow`, calls };
  })
  /** The automation queue the runs go through, closed when the file ends. */
  .extend("automationQueue", { scope: "file" }, ({}, { onCleanup }) => onCleanup(() => closeAutomationQueue()))
  // Only a dependency: the route server starts once the upstream is allow-listed.
  .extend("server", { scope: "file" }, ({ slowUpstream: _slowUpstream, automationQueue: _automationQueue, server }) => server)
  /** The client with a key for automations, records and endpoints, on a project with the ticket schemas. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    await createTicketSchemas(project.projectId);
    const key = await project.keyFor([
      "automations.read",
      "automations.write",
      "automations.run",
      "records.read",
      "records.create",
      "records.update",
      "records.delete",
      "endpoints.create",
    ]);
    return ownerApi.with({ credentials: { key } });
  });

async function createAutomation(api: ProjectApi, definition: unknown): Promise<{ id: string }> {
  const response = await api.manage("/automations", { method: "POST", body: JSON.stringify(definition) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function ticketsTitled(api: ProjectApi, title: string): Promise<Array<Record<string, unknown>>> {
  const store = await getProjectRecordStore({ projectId: api.projectId });
  return store.find("tickets", { where: [{ field: "title", op: "eq", value: title }] });
}

describe("manual runs", () => {
  it("answers 202 with the execution id, runs the flow with the payload as trigger and logs it", async ({ api }) => {
    const automation = await createAutomation(api, {
      name: "Open a ticket",
      trigger: { type: "manual" },
      steps: [{ type: "create", name: "ticket", schema: "tickets", values: { title: "{{trigger.title}}", status: "open" } }],
    });
    const response = await api.manage(`/automations/${automation.id}/run`, { method: "POST", body: JSON.stringify({ title: "From a manual run" }) });
    expect(response.status).toBe(202);
    const { executionId } = (await response.json()) as { executionId: string };
    expect(executionId).toMatch(/^exe_/);

    const [run] = await waitForAutomationRuns(api.projectId, automation.id, 1);
    expect(run).toMatchObject({ id: executionId, source: "automation", automationId: automation.id, trigger: "manual", attempt: 1, outcome: "completed", httpStatus: null });
    expect(await ticketsTitled(api, "From a manual run")).toHaveLength(1);

    const listed = await api.manage(`/automations/${automation.id}/executions`);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { data: Array<{ id: string }> }).data.map((entry) => entry.id)).toEqual([executionId]);
    const single = await api.manage(`/executions/${executionId}`);
    expect(single.status).toBe(200);
  });

  it("runs a disabled automation by hand", async ({ api }) => {
    const automation = await createAutomation(api, {
      name: "Disabled",
      enabled: false,
      trigger: { type: "manual" },
      steps: [{ type: "transform", name: "echo", expression: "trigger" }],
    });
    const response = await api.manage(`/automations/${automation.id}/run`, { method: "POST", body: "{}" });
    expect(response.status).toBe(202);
    const [run] = await waitForAutomationRuns(api.projectId, automation.id, 1);
    expect(run?.outcome).toBe("completed");
  });
});

describe("record triggers", () => {
  it("runs once per records API write that matches, and a flow's own write triggers nothing (no chain reaction)", async ({ api }) => {
    // The automation updates the very record whose change starts it.
    const automation = await createAutomation(api, {
      name: "Note closed tickets",
      trigger: {
        type: "record",
        schema: "tickets",
        events: ["update"],
        condition: {
          checks: [
            { left: "{{trigger.record.status}}", operator: "equals", right: "closed" },
            { left: "{{trigger.previous.status}}", operator: "equals", right: "open" },
          ],
        },
      },
      steps: [{ type: "update", name: "noted", schema: "tickets", filters: "id = {{trigger.record.id}}", values: { owner: "closed by automation", status: "open" } }],
    });
    const ticket = await createTestRecord(api.projectId, "tickets", { title: "Chain reaction", status: "open" });

    // Not matching the condition: no run.
    const renamed = await api.manage(`/records/tickets/${ticket.id}`, { method: "PATCH", body: JSON.stringify({ priority: 2 }) });
    expect(renamed.status).toBe(200);
    const closed = await api.manage(`/records/tickets/${ticket.id}`, { method: "PATCH", body: JSON.stringify({ status: "closed" }) });
    expect(closed.status).toBe(200);

    const [run] = await waitForAutomationRuns(api.projectId, automation.id, 1);
    expect(run).toMatchObject({ trigger: "record", outcome: "completed", attempt: 1 });
    const [stored] = await ticketsTitled(api, "Chain reaction");
    // The automation reopened the ticket (open → closed would match again if flow writes emitted events).
    expect(stored).toMatchObject({ owner: "closed by automation", status: "open" });
    expect(await automationRunsAfterQuiet(api.projectId, automation.id)).toHaveLength(1);
  });

  it("gives the flow the event, schema, record and previous record; create and delete trigger too", async ({ api }) => {
    const automation = await createAutomation(api, {
      name: "Echo ticket events",
      trigger: { type: "record", schema: "tickets", events: ["create", "delete"] },
      steps: [{ type: "transform", name: "seen", expression: "{event: trigger.event, schema: trigger.schema, title: trigger.record.title, previous: trigger.previous}" }],
    });
    const created = await api.manage("/records/tickets", { method: "POST", body: JSON.stringify({ title: "Echo me", status: "open" }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await api.manage(`/records/tickets/${id}`, { method: "DELETE" })).status).toBe(204);

    const runs = await waitForAutomationRuns(api.projectId, automation.id, 2);
    const outputs = runs.map((run) => JSON.parse(run.steps[0]!.outputPreview!) as Record<string, unknown>);
    expect(outputs).toEqual(
      expect.arrayContaining([
        { event: "create", schema: "tickets", title: "Echo me", previous: null },
        { event: "delete", schema: "tickets", title: "Echo me", previous: null },
      ]),
    );
  });

  it("emits nothing for writes made by endpoint flows", async ({ api }) => {
    const automation = await createAutomation(api, { name: "Watch creates", trigger: { type: "record", schema: "authors", events: ["create"] }, steps: [] });
    const endpoint = await api.manage("/endpoints", {
      method: "POST",
      body: JSON.stringify({
        name: "Add author",
        method: "POST",
        slug: "add-author",
        steps: [{ type: "create", name: "author", schema: "authors", values: { name: "{{body.name}}" } }],
      }),
    });
    expect(endpoint.status).toBe(201);
    const invoked = await api.invoke("add-author", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"name":"Flow"}',
    });
    expect(invoked.status).toBe(200);
    expect(await automationRunsAfterQuiet(api.projectId, automation.id)).toHaveLength(0);
  });
});

describe("schedules", () => {
  it("runs once per tick however many instances queue it", async ({ api }) => {
    const automation = await createAutomation(api, {
      name: "Every minute",
      trigger: { type: "schedule", cron: "* * * * *", timezone: "Europe/Berlin" },
      steps: [{ type: "transform", name: "at", expression: "trigger.scheduledAt" }],
    });
    const tick = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    // Two instances reach the same minute.
    const [first, second] = await Promise.all([queueDueSchedules(tick), queueDueSchedules(tick)]);
    expect(first.some((job) => job.automationId === automation.id)).toBe(true);
    expect(second.some((job) => job.automationId === automation.id)).toBe(true);
    const runs = await waitForAutomationRuns(api.projectId, automation.id, 1);
    expect(runs[0]?.steps[0]?.outputPreview).toBe(JSON.stringify(tick.toISOString()));
    expect(await automationRunsAfterQuiet(api.projectId, automation.id)).toHaveLength(1);
  });

  it("skips schedules that do not fire at the tick", async ({ api }) => {
    const automation = await createAutomation(api, { name: "Never now", trigger: { type: "schedule", cron: "0 0 29 2 *", timezone: "UTC" }, steps: [] });
    const jobs = await queueDueSchedules(new Date(Date.UTC(2027, 0, 1, 12, 0)));
    expect(jobs.some((job) => job.automationId === automation.id)).toBe(false);
  });
});

describe("retries", () => {
  it("retries a failed run per the policy; each attempt is logged with its number", async ({ api }) => {
    const automation = await createAutomation(api, {
      name: "Always fails",
      trigger: { type: "manual" },
      steps: [{ type: "create", name: "bad", schema: "tickets", values: { title: "{{trigger.title}}", status: "not-a-status" } }],
      retry: { attempts: 1, backoffSeconds: 1 },
    });
    const response = await api.manage(`/automations/${automation.id}/run`, { method: "POST", body: '{"title":"Retry me"}' });
    const { executionId } = (await response.json()) as { executionId: string };
    const runs = await waitForAutomationRuns(api.projectId, automation.id, 2);
    const byAttempt = [...runs].sort((a, b) => (a.attempt ?? 0) - (b.attempt ?? 0));
    expect(byAttempt.map((run) => [run.attempt, run.outcome])).toEqual([
      [1, "failed"],
      [2, "failed"],
    ]);
    expect(byAttempt[0]?.id).toBe(executionId);
    expect(byAttempt[1]?.retryOf).toBe(executionId);
    expect(await automationRunsAfterQuiet(api.projectId, automation.id, 2_000)).toHaveLength(2);
  });
});

describe("fairness between projects", () => {
  it("runs at most five runs of a project at once, and another project's run does not wait for its backlog", async ({ server, slowUpstream, api }) => {
    const flooding = await createAutomation(api, { name: "Slow", trigger: { type: "manual" }, steps: [{ type: "http", name: "upstream", method: "GET", url: slowUpstream.url }] });
    const other = await createProjectFixture("Quiet neighbour");
    const otherKey = await other.keyFor(["automations.write", "automations.run"]);
    const otherApi = projectApi(server, other, { key: otherKey });
    const otherCall = (path: string, body: unknown) => otherApi.request("POST", path, body);
    const quiet = (await (await otherCall("/automations", { name: "Quick", trigger: { type: "manual" }, steps: [] })).json()) as { id: string };

    const flood = 30;
    slowUpstream.calls.mostAtOnce = 0;
    for (let index = 0; index < flood; index++) expect((await api.manage(`/automations/${flooding.id}/run`, { method: "POST", body: "{}" })).status).toBe(202);
    expect((await otherCall(`/automations/${quiet.id}/run`, {})).status).toBe(202);

    // 30 runs of 300 ms, five at a time, take at least 1.8 s; the neighbour's run is done long before.
    await waitForAutomationRuns(other.projectId, quiet.id, 1);
    const store = await getProjectRecordStore({ projectId: api.projectId });
    const finishedByThen = await store.count("_executions", { where: [{ field: "automationId", op: "eq", value: flooding.id }] });
    expect(finishedByThen).toBeLessThan(flood);

    const runs = await waitForAutomationRuns(api.projectId, flooding.id, flood, 30_000);
    expect(runs.every((run) => run.outcome === "completed")).toBe(true);
    // No more than five ran at the same moment (counted where they meet: the upstream, not by clocks).
    expect(slowUpstream.calls.mostAtOnce).toBeGreaterThan(1);
    expect(slowUpstream.calls.mostAtOnce).toBeLessThanOrEqual(5);
  }, 60_000);
});
