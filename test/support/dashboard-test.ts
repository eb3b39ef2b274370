import { test } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createProjectFixture } from "@/test/fixtures";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * The `test` of the dashboard action tests (server actions called in this process, no HTTP), in
 * place of module-level `let` + `beforeAll`: `project`, a project whose owner is the signed-in
 * dashboard user (`dashboardSession`), made on first use; the customer databases and the platform
 * database close when the file ends. A file adds its own with `dashboardTest.extend(name, { scope: "file" }, …)`.
 */
export const dashboardTest = test.extend("project", { scope: "file" }, async ({}, { onCleanup }) => {
  onCleanup(async () => {
    await closeAllRecordStores();
    await closePlatformDb();
  });
  const project = await createProjectFixture();
  dashboardSession.cookie = project.owner.cookie;
  return project;
});
