import { expect, test } from "@playwright/test";
import { PASSWORD, createWorkspace, screenshot, signIn, signOut, signUp, uniqueEmail } from "./helpers";

test("sign up, create a workspace, a project on the local database and an API key, sign out and back in", async ({ page }) => {
  const email = uniqueEmail("owner");
  const workspaceName = "Acme Studio";

  await page.goto("/");
  await screenshot(page, "01-landing");
  await page.getByRole("link", { name: "Create an account" }).click();

  await signUp(page, { email, name: "Ada Owner", shot: "02-sign-up" });
  await expect(page.getByRole("heading", { name: "Workspaces" })).toBeVisible();
  await expect(page.getByTestId("current-user-email")).toHaveText(email);
  await screenshot(page, "03-workspaces-empty");

  // A blank name is refused by the service, and the form says why.
  await page.getByLabel("Workspace name").fill("   ");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByText("A name is required")).toBeVisible();

  const workspaceId = await createWorkspace(page, workspaceName);
  await expect(page.getByText("No projects yet")).toBeVisible();
  await screenshot(page, "04-workspace");

  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a project" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Project name").fill("Marketing site");
  await expect(dialog.getByRole("radio", { name: /Built-in local database/ })).toBeChecked();
  // The URL choices show the connection field and a test that explains a bad URL plainly.
  await dialog.getByRole("radio", { name: /PostgreSQL/ }).check({ force: true });
  await dialog.getByLabel("Connection URL").fill("mysql://user:hunter2@db.example.com/app");
  await dialog.getByRole("button", { name: "Test connection" }).click();
  await expect(dialog.getByRole("status")).toContainText("The connection URL must start with postgres://");
  await expect(dialog.getByRole("status")).not.toContainText("hunter2");
  await screenshot(page, "05-new-project-test-connection");
  await dialog.getByRole("radio", { name: /Built-in local database/ }).check({ force: true });
  await expect(dialog.getByLabel("Connection URL")).toHaveCount(0);
  await screenshot(page, "06-new-project-local");
  await dialog.getByRole("button", { name: "Create project" }).click();

  await expect(page).toHaveURL(/\/projects\/prj_[0-9a-z]+$/);
  const projectUrl = page.url();
  await expect(page.getByRole("heading", { level: 1, name: "Marketing site" })).toBeVisible();
  await expect(page.getByText("Built-in database").first()).toBeVisible();
  await screenshot(page, "07-project-overview");

  const projectNav = page.getByRole("navigation", { name: "Project" });
  await expect(projectNav.getByRole("link", { name: "Automations", exact: true })).toBeVisible();
  await expect(projectNav.getByText("Coming soon")).toHaveCount(0);
  await projectNav.getByRole("link", { name: /Endpoints/ }).click();
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await screenshot(page, "08-endpoints-empty");

  await projectNav.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await page.getByRole("button", { name: "Test current connection" }).click();
  // The first open of a project's built-in database creates it, which takes a while on a busy machine.
  await expect(page.getByRole("status").filter({ hasText: "✓" })).toBeVisible({ timeout: 45_000 });
  // The mail server form keeps the password on the server: saving and reloading never shows it.
  // Its host is checked like any outbound destination: a name that does not resolve is refused on the field.
  await page.getByLabel("SMTP host").fill("smtp.example.com");
  await page.getByLabel("User", { exact: true }).fill("mailer");
  await page.getByLabel("Password", { exact: true }).fill("smtp-secret-value");
  await page.getByLabel("From", { exact: true }).fill("Acme <hello@acme.example>");
  await page.getByRole("button", { name: "Save mail server" }).click();
  await expect(page.getByText(/smtp\.example\.com failed/)).toBeVisible();
  // The run allow-lists 127.0.0.1:1 (OUTBOUND_ALLOWED_HOSTS), as an operator would an internal relay.
  await page.getByLabel("SMTP host").fill("127.0.0.1");
  await page.getByLabel("Port", { exact: true }).fill("1");
  await page.getByLabel("Password", { exact: true }).fill("smtp-secret-value");
  await page.getByRole("button", { name: "Save mail server" }).click();
  await expect(page.getByText("Mail server saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("SMTP host")).toHaveValue("127.0.0.1");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  expect(await page.content()).not.toContain("smtp-secret-value");
  await screenshot(page, "09-project-settings");

  await projectNav.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await page.getByLabel("Key name").fill("Website");
  await page.getByRole("checkbox", { name: /records\.read/ }).check();
  await screenshot(page, "10-api-key-form");
  await page.getByRole("button", { name: "Create API key" }).click();

  const reveal = page.getByRole("region", { name: "New API key" });
  await expect(reveal).toBeVisible();
  await expect(reveal).toContainText("you will not see it again");
  const key = await reveal.getByLabel("New API key").inputValue();
  expect(key).toMatch(/^fpk_[0-9A-Za-z]{38}$/);
  const masked = `${key.slice(0, 10)}…${key.slice(-4)}`;
  const keysTable = page.getByRole("table");
  await expect(keysTable.getByRole("row", { name: /Website/ })).toContainText(masked);
  await expect(keysTable.getByRole("row", { name: /Website/ })).toContainText("records.read");
  await screenshot(page, "11-api-key-revealed");
  await reveal.screenshot({ path: "e2e/artifacts/11b-api-key-reveal-panel.png" });

  // After a reload the key is gone for good: only its prefix and last four characters remain.
  await page.reload();
  await expect(page.getByRole("region", { name: "New API key" })).toHaveCount(0);
  await expect(keysTable.getByRole("row", { name: /Website/ })).toContainText(masked);
  expect(await page.content()).not.toContain(key);
  await screenshot(page, "12-api-keys-after-reload");

  // The revealed key is a real one: the API knows it (403: key management is for the dashboard only),
  // while a made-up key is unknown (401).
  const apiKeysRoute = `/api/projects/${projectUrl.split("/").pop()}/api-keys`;
  expect((await page.request.get(apiKeysRoute, { headers: { authorization: `Bearer ${key}` } })).status()).toBe(403);
  expect((await page.request.get(apiKeysRoute, { headers: { authorization: "Bearer fpk_invalid" } })).status()).toBe(401);

  await signOut(page);
  await page.goto("/workspaces");
  await expect(page).toHaveURL(/\/sign-in/);

  await signIn(page, { email, password: "not the password" });
  await expect(page.getByRole("alert").filter({ hasText: "The email or password is incorrect." })).toBeVisible();
  await screenshot(page, "13-sign-in-error");
  await signIn(page, { email, password: PASSWORD });
  await expect(page).toHaveURL(/\/workspaces$/);
  await expect(page.getByRole("link", { name: new RegExp(workspaceName) })).toBeVisible();
  await expect(page.getByRole("list", { name: "Your workspaces" })).toContainText("1 project");
  await screenshot(page, "14-signed-in-again");

  await page.goto(`/workspaces/${workspaceId}`);
  await expect(page.getByRole("list", { name: "Projects" })).toContainText("Marketing site");

  // On a phone the page is no wider than the screen (a wider top bar made phones zoom every page
  // out): the account actions are behind the top bar's Menu, which opens from the keyboard.
  await page.setViewportSize({ width: 412, height: 823 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
  await expect(page.getByRole("button", { name: "Sign out everywhere" })).toBeHidden();
  await page.locator("summary", { hasText: "Menu" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("link", { name: "Account" })).toBeVisible();
  await screenshot(page, "15-phone-menu");
  await signOut(page);
});
