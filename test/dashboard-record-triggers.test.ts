import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { createAutomation } from "@/lib/automations/create-automation";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import { waitForAutomationRuns } from "@/test/support/automation-runs";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * Record changes made in the dashboard (its records server actions) start record automations as
 * records API writes do (issue 10): create, update and delete, each queued once.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/records/actions");

let fixture: ProjectFixture;

beforeAll(async () => {
  fixture = await createProjectFixture("Dashboard triggers");
  dashboardSession.cookie = fixture.owner.cookie;
  await createTicketSchemas(fixture.projectId);
});

afterAll(async () => {
  await closeAutomationQueue();
  await closeAllRecordStores();
  await closePlatformDb();
});

describe("record triggers from the dashboard", () => {
  it("runs the automation for a create, an update and a delete made with the records actions", async () => {
    const automation = await createAutomation({
      projectId: fixture.projectId,
      input: {
        name: "Watch tickets",
        trigger: { type: "record", schema: "tickets", events: ["create", "update", "delete"] },
        steps: [{ type: "transform", name: "seen", expression: "join(':', [trigger.event, trigger.record.title])" }],
      },
    });
    const created = await actions.createRecordAction(fixture.projectId, "tickets", { title: "From the dashboard", status: "open" });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const id = created.ok ? created.data.id : "";
    expect((await actions.updateRecordAction(fixture.projectId, "tickets", id, { title: "Renamed", status: "open" })).ok).toBe(true);
    expect(await actions.deleteRecordAction(fixture.projectId, "tickets", id)).toEqual({ ok: true });

    const runs = await waitForAutomationRuns(fixture.projectId, automation.id, 3);
    expect(runs.map((run) => JSON.parse(run.steps[0]!.outputPreview!) as string).sort()).toEqual(["create:From the dashboard", "delete:Renamed", "update:Renamed"]);
  });
});
