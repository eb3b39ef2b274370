import { describe, expect, vi } from "vitest";
import { getAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { replayPayloadOf } from "@/lib/automations/replay-payload";
import { waitForAutomationRuns } from "@/test/support/automation-runs";
import { createAutomation } from "@/lib/automations/create-automation";
import { listAutomations } from "@/lib/automations/list-automations";
import { EXECUTIONS_COLLECTION } from "@/lib/flow/execution-log/execution-log-entry";
import { newId } from "@/lib/ids";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { crossTenantTest, itSweepsEveryAction } from "@/test/support/cross-tenant-actions";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * Tenant isolation of the automations dashboard's server actions, against the real platform
 * database and the projects' own customer databases: user B calls every action with user A's ids
 * (A's project; B's project with A's automation or execution), and each call is refused with
 * nothing of A's revealed or changed. B's own calls, made the same way, succeed: the refusals are
 * the membership and project checks, not broken arguments. test/server-actions-inventory.test.ts
 * requires every action of the file to have a case in CASES below.
 */

vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/automations/actions");

type Tenant = ProjectFixture & { automationId: string; executionId: string };
interface Tenants {
  A: Tenant;
  B: Tenant;
}

const draft = { name: "planted", enabled: true, trigger: { type: "manual" }, steps: [], retry: { attempts: 0, backoffSeconds: 30 } };

/** Puts a failed run of the automation in the project's execution log, with the request body the log kept; answers its id. */
async function insertFailedRun(projectId: string, automationId: string, body: string): Promise<string> {
  const store = await getProjectRecordStore({ projectId });
  const executionId = newId("execution");
  await store.insert(EXECUTIONS_COLLECTION, {
    id: executionId,
    source: "automation",
    automationId,
    endpointId: null,
    startedAt: new Date().toISOString(),
    durationMs: 2,
    outcome: "failed",
    httpStatus: null,
    error: "boom",
    steps: [],
    request: { query: null, body },
  });
  return executionId;
}

async function withAutomationAndRun(fixture: ProjectFixture): Promise<Tenant> {
  const automation = await createAutomation({ projectId: fixture.projectId, input: { name: `Owned by ${fixture.projectId}`, trigger: { type: "manual" }, steps: [] } });
  // A failed run whose payload the log kept whole: Run again would queue it.
  const executionId = await insertFailedRun(fixture.projectId, automation.id, JSON.stringify({ email: "a@example.com" }));
  return { ...fixture, automationId: automation.id, executionId };
}

/** Everything of A's an action could change: its automations as stored and its execution log. */
async function snapshot(fixture: ProjectFixture): Promise<string> {
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  const runs = await store.find(EXECUTIONS_COLLECTION, { sort: [{ field: "id", direction: "asc" }] });
  return JSON.stringify({ automations: await listAutomations({ projectId: fixture.projectId }), runs: runs.map((run) => run.id) });
}

function refusedWithoutLeak({ A }: Tenants, result: unknown, label: string): void {
  const value = result as { ok?: boolean; error?: string; code?: string };
  expect(value.ok, label).not.toBe(true);
  expect(value.error, label).toMatch(/not found/i);
  const text = JSON.stringify(result);
  for (const secret of [A.automationId, A.executionId, `Owned by ${A.projectId}`, "a@example.com"]) expect(text, label).not.toContain(secret);
}

const it = crossTenantTest(async (): Promise<Tenants> => {
  const A = await withAutomationAndRun(await createProjectFixture("Automations of A"));
  const B = await withAutomationAndRun(await createProjectFixture("Automations of B"));
  dashboardSession.cookie = B.owner.cookie;
  return { A, B };
});

/** Each action, and every argument list B tries with A's ids. */
const CASES: Record<keyof typeof actions, (tenants: Tenants) => unknown[][]> = {
  createAutomationAction: ({ A }) => [[A.projectId, draft]],
  updateAutomationAction: ({ A, B }) => [
    [A.projectId, A.automationId, { ...draft, name: "pwned" }],
    [B.projectId, A.automationId, { ...draft, name: "pwned" }],
  ],
  setAutomationEnabledAction: ({ A, B }) => [
    [A.projectId, A.automationId, false],
    [B.projectId, A.automationId, false],
  ],
  deleteAutomationAction: ({ A, B }) => [
    [A.projectId, A.automationId],
    [B.projectId, A.automationId],
  ],
  runAutomationNowAction: ({ A, B }) => [
    [A.projectId, A.automationId, { x: 1 }],
    [B.projectId, A.automationId, { x: 1 }],
  ],
  runAutomationAgainAction: ({ A, B }) => [
    [A.projectId, A.automationId, A.executionId],
    [B.projectId, A.automationId, A.executionId],
    // B's own automation with A's execution: B's database does not hold it.
    [B.projectId, B.automationId, A.executionId],
  ],
  exportAutomationsAction: ({ A }) => [[A.projectId]],
  importAutomationsAction: ({ A }) => [[A.projectId, { automations: [draft] }]],
};

describe("automations server actions across tenants", () => {
  itSweepsEveryAction(it, { actions, cases: CASES, expectRefused: refusedWithoutLeak, snapshots: ({ A, B }) => [snapshot(A), snapshot(B)] });

  it("refuse a signed-in user of no workspace of the project the same way", async ({ tenants }) => {
    const { A, B } = tenants;
    const stranger = await createProjectFixture("Stranger");
    dashboardSession.cookie = stranger.owner.cookie;
    try {
      refusedWithoutLeak(tenants, await actions.exportAutomationsAction(A.projectId), "export as a stranger");
      refusedWithoutLeak(tenants, await actions.runAutomationNowAction(A.projectId, A.automationId, {}), "run as a stranger");
    } finally {
      dashboardSession.cookie = B.owner.cookie;
    }
  });

  it("check arguments before anything else: a malformed payload or id is a 422 naming it", async ({ tenants }) => {
    const { B } = tenants;
    const payload = await actions.runAutomationNowAction(B.projectId, B.automationId, [1, 2] as unknown as Record<string, unknown>);
    expect(payload).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "payload" }] });
    const enabled = await actions.setAutomationEnabledAction(B.projectId, B.automationId, "yes" as unknown as boolean);
    expect(enabled.error).toBeTruthy();
    const id = await actions.deleteAutomationAction(B.projectId, "x".repeat(500));
    expect(id.error).toBeTruthy();
  });

  it("let B do the same with B's own ids", async ({ tenants }) => {
    const { B } = tenants;
    const exported = await actions.exportAutomationsAction(B.projectId);
    expect(exported).toMatchObject({ ok: true });
    expect(JSON.stringify(exported)).toContain(`Owned by ${B.projectId}`);
    const created = await actions.createAutomationAction(B.projectId, { ...draft, name: "B's own" });
    expect(created).toMatchObject({ ok: true, data: { id: expect.stringMatching(/^aut_/) } });
    const id = created.ok ? created.data.id : "";
    expect(await actions.updateAutomationAction(B.projectId, id, { ...draft, name: "B's own, renamed" })).toMatchObject({ ok: true, data: { version: 2 } });
    expect(await actions.setAutomationEnabledAction(B.projectId, id, false)).toEqual({ ok: true });
    expect(await actions.runAutomationNowAction(B.projectId, id, { email: "b@example.com" })).toMatchObject({ ok: true, data: { executionId: expect.stringMatching(/^exe_/) } });
    expect(await actions.runAutomationAgainAction(B.projectId, B.automationId, B.executionId)).toMatchObject({ ok: true, data: { executionId: expect.stringMatching(/^exe_/) } });
    expect(await actions.importAutomationsAction(B.projectId, { automations: [{ ...draft, name: "imported" }] })).toMatchObject({ ok: true, data: { created: 1, updated: 0 } });
    expect(await actions.deleteAutomationAction(B.projectId, id)).toEqual({ ok: true });
  });

  it("explain, not queue, a run whose payload the log could not keep whole", async ({ tenants }) => {
    const { B } = tenants;
    const executionId = await insertFailedRun(B.projectId, B.automationId, '{"token":"[redacted]"}');
    const again = await actions.runAutomationAgainAction(B.projectId, B.automationId, executionId);
    expect(again).toMatchObject({ ok: false, issues: [{ path: "payload" }] });
    expect(again.ok === false && again.error).toMatch(/redacted/);
  });

  it("queues the whole payload of a failed run again, though its log kept only a capped, redacted preview", async ({ tenants }) => {
    const { B } = tenants;
    const automation = await createAutomation({
      projectId: B.projectId,
      input: { name: "Fails on purpose", trigger: { type: "manual" }, steps: [{ type: "http", name: "call", url: "{{trigger.url}}" }] },
    });
    // The egress guard refuses loopback: the run fails in its first step.
    const payload = { url: "http://127.0.0.1:9/refused", password: "kept whole", notes: "n".repeat(5_000) };
    expect(await actions.runAutomationNowAction(B.projectId, automation.id, payload)).toMatchObject({ ok: true });
    const [failed] = await waitForAutomationRuns(B.projectId, automation.id, 1);
    expect(failed).toMatchObject({ outcome: "failed", jobId: expect.stringMatching(/^manual-/) });
    expect(replayPayloadOf(failed!)).toMatchObject({ ok: false });

    const again = await actions.runAutomationAgainAction(B.projectId, automation.id, failed!.id);
    expect(again).toMatchObject({ ok: true });
    const runs = await waitForAutomationRuns(B.projectId, automation.id, 2);
    const replayed = runs.find((run) => again.ok && run.id === again.data.executionId);
    expect(replayed?.jobId).toMatch(/^manual-/);
    expect((await getAutomationQueue().failedJob(replayed!.jobId!))?.trigger).toEqual(payload);
  });
});
