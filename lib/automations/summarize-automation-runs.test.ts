import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptSecret } from "@/lib/crypto/encrypt-secret";
import { EXECUTIONS_COLLECTION } from "@/lib/flow/execution-log/execution-log-entry";
import { newId } from "@/lib/ids";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectOrThrow, type ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createProjectFixture } from "@/test/fixtures";
import { summarizeAutomationRuns } from "./summarize-automation-runs";

/** Against the project's real customer database (the embedded one): entries as the execution log stores them. */
let project: ProjectRow;
const NOW = new Date("2030-06-01T12:00:00.000Z");
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

beforeAll(async () => {
  const fixture = await createProjectFixture("Run summaries");
  project = await getProjectOrThrow({ projectId: fixture.projectId });
  const store = await getProjectRecordStore({ project });
  const entry = (automationId: string | null, startedAt: string, outcome: string, source = "automation") => ({
    id: newId("execution"),
    source,
    automationId,
    endpointId: source === "endpoint" ? "ep_1" : null,
    startedAt,
    durationMs: 3,
    outcome,
    httpStatus: null,
    error: outcome === "failed" ? "boom" : null,
    steps: [],
    request: null,
  });
  // Ids are time-ordered: inserted oldest first, as runs are logged.
  await store.insertMany(EXECUTIONS_COLLECTION, [
    entry("aut_a", hoursAgo(30), "failed"),
    entry("aut_a", hoursAgo(20), "failed"),
    entry("aut_a", hoursAgo(5), "completed"),
    entry("aut_a", hoursAgo(2), "failed"),
    entry("aut_b", hoursAgo(1), "stopped"),
    entry(null, hoursAgo(1), "failed", "endpoint"),
  ]);
});

afterAll(async () => {
  await closeAllRecordStores();
  await closePlatformDb();
});

describe("summarizeAutomationRuns", () => {
  it("gives each automation its newest run and its failures of the last 24 hours", async () => {
    const summary = await summarizeAutomationRuns({ project, automationIds: ["aut_a", "aut_b", "aut_never"], now: NOW });
    expect(summary.ok).toBe(true);
    if (!summary.ok) return;
    expect(summary.byAutomation.get("aut_a")).toMatchObject({ lastRun: { startedAt: hoursAgo(2), outcome: "failed" }, failuresLast24h: 2 });
    expect(summary.byAutomation.get("aut_a")?.lastRun?.executionId).toMatch(/^exe_/);
    expect(summary.byAutomation.get("aut_b")).toMatchObject({ lastRun: { outcome: "stopped" }, failuresLast24h: 0 });
    expect(summary.byAutomation.get("aut_never")).toEqual({ lastRun: null, failuresLast24h: 0 });
  });

  it("reads two bounded queries per automation, not the log", async () => {
    const store = await getProjectRecordStore({ project });
    const before = store.metrics.queries;
    await summarizeAutomationRuns({ project, automationIds: ["aut_a", "aut_b"], now: NOW });
    expect(store.metrics.queries - before).toBe(4);
  });

  it("answers nothing to read for no automations, without touching the database", async () => {
    const summary = await summarizeAutomationRuns({ project, automationIds: [] });
    expect(summary).toEqual({ ok: true, byAutomation: new Map() });
  });

  it("answers unavailable, without throwing, when the customer database cannot be reached", async () => {
    // A PostgreSQL database on a closed loopback port (refused by the outbound guard or the socket).
    const unreachable: ProjectRow = {
      ...project,
      databaseKind: "postgres",
      databaseUrlEncrypted: encryptSecret("postgres://flow:pw@127.0.0.1:1/customer", { projectId: project.id }),
    };
    const started = Date.now();
    const summary = await summarizeAutomationRuns({ project: unreachable, automationIds: ["aut_a", "aut_b"], now: NOW });
    expect(summary.ok).toBe(false);
    // The owner's own database is named as the execution pages name it; its password never.
    expect(!summary.ok && summary.message).not.toContain("pw");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
