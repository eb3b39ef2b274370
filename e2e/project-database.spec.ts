import { expect, test } from "@playwright/test";
import pg from "pg";
import { createWorkspace, screenshot, signUp, uniqueEmail } from "./helpers";

const createdDatabases: Array<{ server: URL; name: string }> = [];

async function onServer(serverUrl: URL, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A database of its own on the run's PostgreSQL server: a database serves one project, and earlier runs' projects hold theirs. */
async function createCustomerDatabase(serverUrl: URL): Promise<string> {
  const name = `flowpoint_e2e_customer_${Date.now().toString(36)}`;
  await onServer(serverUrl, `create database ${name}`);
  createdDatabases.push({ server: serverUrl, name });
  return name;
}

test.afterAll(async () => {
  for (const { server, name } of createdDatabases.splice(0)) await onServer(server, `drop database if exists ${name} with (force)`);
});

const SECRET = "s3cret-Passw0rd";

test("project settings: test and change the database without the password ever coming back", async ({ page }) => {
  await signUp(page, { email: uniqueEmail("dba") });
  await createWorkspace(page, "Data team");
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a project" });
  await dialog.getByLabel("Project name").fill("Inventory");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/prj_/);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Settings" }).click();

  await page.getByRole("button", { name: "Change database" }).click();
  const form = page.getByRole("form", { name: "Change database" });
  await expect(form.getByRole("radio", { name: /PostgreSQL/ })).toBeChecked();
  const url = form.getByLabel("Connection URL");
  const status = form.getByRole("status");

  // Nothing listens on port 1: the test says the connection was refused, and never shows the password.
  await url.fill(`postgres://app:${SECRET}@127.0.0.1:1/inventory`);
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(status).toContainText(/refused/i);
  await expect(status).not.toContainText(SECRET);
  await screenshot(page, "30-database-test-refused");

  // A loopback address that is not allow-listed is refused before any connection is opened.
  await url.fill(`postgres://app:${SECRET}@127.0.0.2:5432/inventory`);
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(status).toContainText(/not allowed|private|loopback|internal|reserved/i);
  await expect(status).not.toContainText(SECRET);

  const real = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : null;
  if (real) {
    // The run's real PostgreSQL answers: the test succeeds, and the project is switched to it.
    const database = await createCustomerDatabase(real);
    await url.fill(`postgres://${real.username || "postgres"}:${SECRET}@${real.hostname}:${real.port || "5432"}/${database}`);
    await form.getByRole("button", { name: "Test connection" }).click();
    await expect(status).toContainText("✓");
    await screenshot(page, "31-database-test-ok");
  } else {
    await url.fill(`postgres://app:${SECRET}@127.0.0.1:1/inventory`);
  }
  await form.getByRole("button", { name: "Save database" }).click();
  await expect(page.getByText("Database saved")).toBeVisible();

  // Stored encrypted and shown masked only: not in the page, not after a reload.
  const hint = page.getByTestId("database-hint");
  await expect(hint).toContainText(real ? real.hostname : "127.0.0.1:1");
  await expect(hint).not.toContainText(SECRET);
  await page.reload();
  expect(await page.content()).not.toContain(SECRET);
  await page.getByRole("button", { name: "Test current connection" }).click();
  const current = page.getByRole("status").filter({ hasText: real ? "✓" : "✕" });
  await expect(current).toBeVisible();
  await expect(current).not.toContainText(SECRET);
  await screenshot(page, "32-database-saved");
});

test("a project or workspace outside the user's workspaces is a plain 404", async ({ page }) => {
  await signUp(page, { email: uniqueEmail("stranger") });
  const response = await page.goto("/projects/prj_00000000000000000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to your workspaces" })).toBeVisible();
  await screenshot(page, "33-not-found");
  expect((await page.goto("/workspaces/ws_00000000000000000000000000"))?.status()).toBe(404);
});
