import { describe, expect, vi } from "vitest";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { createAutomation } from "@/lib/automations/create-automation";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import { waitForAutomationRuns } from "@/test/support/automation-runs";
import { dashboardTest } from "@/test/support/dashboard-test";

/**
 * Record changes made in the dashboard (its records server actions) start record automations as
 * records API writes do (issue 10): create, update and delete, each queued once.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/records/actions");

const it = dashboardTest
  /** The automation queue the runs go through, closed when the file ends. */
  .extend("automationQueue", { scope: "file" }, ({}, { onCleanup }) => onCleanup(() => closeAutomationQueue()))
  /** The ticket schemas in the project, made before the file's first test. */
  .extend("ticketSchemas", { scope: "file", auto: true }, async ({ project, automationQueue: _automationQueue }) => {
    await createTicketSchemas(project.projectId);
  });

describe("record triggers from the dashboard", () => {
  it("runs the automation for a create, an update and a delete made with the records actions", async ({ project }) => {
    const automation = await createAutomation({
      projectId: project.projectId,
      input: {
        name: "Watch tickets",
        trigger: { type: "record", schema: "tickets", events: ["create", "update", "delete"] },
        steps: [{ type: "transform", name: "seen", expression: "join(':', [trigger.event, trigger.record.title])" }],
      },
    });
    const created = await actions.createRecordAction(project.projectId, "tickets", { title: "From the dashboard", status: "open" });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const id = created.ok ? created.data.id : "";
    expect((await actions.updateRecordAction(project.projectId, "tickets", id, { title: "Renamed", status: "open" })).ok).toBe(true);
    expect(await actions.deleteRecordAction(project.projectId, "tickets", id)).toEqual({ ok: true });

    const runs = await waitForAutomationRuns(project.projectId, automation.id, 3);
    expect(runs.map((run) => JSON.parse(run.steps[0]!.outputPreview!) as string).sort()).toEqual(["create:From the dashboard", "delete:Renamed", "update:Renamed"]);
  });
});
