import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { createProject, createWorkspace, expectNoAxeViolations, screenshot, signUp, uniqueEmail } from "./helpers";

/**
 * Automations (issue 10) in Chromium against the production server: an owner builds a form
 * automation in the dashboard, a page on another origin posts a plain HTML form to it, the visitor
 * lands on that site's thanks page (303) and the flow's record, mail, run and submission show in the
 * dashboard; a manual automation is run from the editor with a JSON payload, fails on a step, is
 * fixed and run again. The automations pages pass axe-core.
 */

/** A new account, workspace and project with a `leads` schema (name required, email) built in the schema editor. */
async function setUpLeadsProject(page: Page): Promise<string> {
  await signUp(page, { email: uniqueEmail("automator") });
  await createWorkspace(page, "Lead desk");
  const projectId = await createProject(page, "Website");
  await page.goto(`/projects/${projectId}/schemas/new`);
  await page.getByLabel("Schema name").fill("leads");
  const name = page.getByRole("group", { name: "Field 1" });
  await name.getByLabel("Name", { exact: true }).fill("name");
  await name.getByLabel("Required").check();
  await page.getByRole("button", { name: "Add field" }).click();
  const email = page.getByRole("group", { name: "Field 2" });
  await email.getByLabel("Name", { exact: true }).fill("email");
  await email.getByLabel("Type").selectOption({ label: "Email" });
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(page).toHaveURL(/\/schemas\/leads$/);
  return projectId;
}

/** Adds a "Create record" step into `leads` with name and email from the given templates. */
async function addCreateLeadStep(page: Page, stepNumber: number, values: { name: string; email: string }): Promise<void> {
  await page.getByLabel("Step kind").selectOption({ label: "Create record" });
  await page.getByRole("button", { name: "Add step" }).click();
  const create = page.getByRole("group", { name: `Step ${stepNumber}` });
  await create.getByLabel("Output name").fill("lead");
  await create.getByLabel("Schema").selectOption("leads");
  await create.getByRole("button", { name: "Add field value" }).click();
  await create.getByLabel("Field 1", { exact: true }).selectOption("name");
  await create.getByLabel("Value 1", { exact: true }).fill(values.name);
  await create.getByRole("button", { name: "Add field value" }).click();
  await create.getByLabel("Field 2", { exact: true }).selectOption("email");
  await create.getByLabel("Value 2", { exact: true }).fill(values.email);
}

/** A site on another origin (a loopback port of its own): `/` is the owner's form HTML, `/thanks` the page the form redirects to. */
async function startOtherSite(formHtml: () => string): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const page = (title: string, body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    if (request.method === "GET" && request.url === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(page("Contact us", formHtml()));
    } else if (request.method === "GET" && request.url === "/thanks") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(page("Thanks for writing", "<p>We will be in touch.</p>"));
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

test("a form automation built in the dashboard takes a plain HTML form post from another site: redirect, record, mail, run and submission", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const projectId = await setUpLeadsProject(page);
  const nav = page.getByRole("navigation", { name: "Project" });

  await nav.getByRole("link", { name: "Automations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Automations" })).toBeVisible();
  await expect(page.getByText("No automations yet")).toBeVisible();
  await screenshot(page, "70-automations-empty");
  await expectNoAxeViolations(page, "automations list (empty)");

  let snippet = "";
  const site = await startOtherSite(() => snippet);
  try {
    const thanksUrl = `${site.origin}/thanks`;
    await page.getByRole("link", { name: "New automation" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "New automation" })).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Contact form");
    await page.getByRole("radio", { name: /^Form/ }).check();
    await page.getByLabel("Form slug").fill("contact");
    await page.getByLabel("Redirect URL").fill(thanksUrl);
    await expect(page.getByText("The form's public URL and an HTML snippet appear here once the automation is saved.")).toBeVisible();

    await addCreateLeadStep(page, 1, { name: "{{trigger.fields.name}}", email: "{{trigger.fields.email}}" });
    await page.getByLabel("Step kind").selectOption({ label: "Send email" });
    await page.getByRole("button", { name: "Add step" }).click();
    const email = page.getByRole("group", { name: "Step 2" });
    await email.getByLabel("To", { exact: true }).fill("{{trigger.fields.email}}");
    await email.getByLabel("Subject").fill("Thanks for writing, {{trigger.fields.name}}");
    await email.getByLabel("Body", { exact: true }).fill("Hello {{trigger.fields.name}}, we got your message: {{trigger.fields.message}}\nYour lead is {{steps.lead.id}}.");
    await screenshot(page, "71-automation-editor-new");
    await expectNoAxeViolations(page, "new automation editor");

    await page.getByRole("button", { name: "Create automation" }).click();
    await expect(page).toHaveURL(/\/automations\/aut_[0-9a-z]+$/);
    const automationUrl = new URL(page.url()).pathname;
    await expect(page.getByRole("heading", { level: 1, name: "Contact form" })).toBeVisible();
    const formUrl = `http://localhost:3100/api/projects/${projectId}/forms/contact`;
    await expect(page.getByTestId("form-url")).toHaveText(formUrl);
    // The snippet the dashboard offers is what the other site pastes, as it is.
    snippet = (await page.getByLabel("Form HTML", { exact: true }).textContent())!;
    expect(snippet).toContain(`<form action="${formUrl}" method="post">`);
    expect(snippet).toContain('name="name"');
    expect(snippet).toContain('name="email"');
    await screenshot(page, "72-automation-editor-form");
    await expectNoAxeViolations(page, "automation editor (form)");

    // The visitor, in a browser of their own with no dashboard session, fills the form on the other site.
    const visitor = await browser.newContext();
    try {
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(`${site.origin}/`);
      await expect(visitorPage.getByRole("heading", { name: "Contact us" })).toBeVisible();
      const form = visitorPage.locator(`form[method="post"][action="${formUrl}"]`);
      await expect(form).toHaveCount(1);
      await visitorPage.getByLabel("Name").fill("Ada Lovelace");
      await visitorPage.getByLabel("Email").fill("ada@example.com");
      await visitorPage.getByLabel("Message").fill("Please call me back about the engine.");
      await screenshot(visitorPage, "73-other-site-form");
      const [landed] = await Promise.all([visitorPage.waitForResponse((response) => response.url() === thanksUrl), visitorPage.getByRole("button", { name: "Send" }).click()]);
      await expect(visitorPage).toHaveURL(thanksUrl);
      await expect(visitorPage.getByRole("heading", { name: "Thanks for writing" })).toBeVisible();
      // The browser got there through the form URL's 303 (a GET of the thanks page).
      const posted = landed.request().redirectedFrom();
      expect(posted?.url()).toBe(formUrl);
      expect(posted?.method()).toBe("POST");
      const postResponse = await posted!.response();
      expect(postResponse?.status()).toBe(303);
      expect(postResponse?.headers()["location"]).toBe(thanksUrl);
      expect(site.requests.filter((line) => !line.endsWith("/favicon.ico"))).toEqual(["GET /", "GET /thanks"]);
      await screenshot(visitorPage, "74-other-site-thanks");
    } finally {
      await visitor.close();
    }

    // The run, in the background: completed, on the automation's Runs tab.
    await page.getByRole("navigation", { name: "Automation" }).getByRole("link", { name: "Runs" }).click();
    await expect(page).toHaveURL(new RegExp(`${automationUrl}/runs$`));
    const completed = page.getByRole("row").filter({ hasText: "Completed" });
    await expect(async () => {
      await page.reload();
      await expect(completed).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(completed).toContainText("Form");
    await screenshot(page, "75-automation-runs");
    await expectNoAxeViolations(page, "automation runs");
    await completed.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/executions\/exe_[0-9a-z]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Automation run");
    await expect(page.getByRole("listitem", { name: "Step 1" })).toContainText("Create record");
    await expect(page.getByRole("listitem", { name: "Step 1" })).toContainText("Ada Lovelace");
    await expect(page.getByRole("listitem", { name: "Step 2" })).toContainText("Send email");
    await screenshot(page, "76-automation-run-detail");

    // The submission, as received, on the Submissions tab.
    await page.goto(`${automationUrl}/submissions`);
    const submissions = page.getByRole("table");
    await expect(submissions).toContainText("Ada Lovelace");
    await expect(submissions).toContainText("ada@example.com");
    await expect(submissions).toContainText("Please call me back about the engine.");
    await expect(submissions).toContainText(site.origin);
    await expect(submissions).toContainText("Queued");
    await screenshot(page, "77-automation-submissions");
    await expectNoAxeViolations(page, "automation submissions");
    await page.getByLabel("Search submissions").fill("nobody@example.com");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("No submissions match")).toBeVisible();

    // The record the flow created, and the mail it sent (no mail server: the project's local mailbox).
    await page.goto(`/projects/${projectId}/records/leads`);
    await expect(page.getByRole("row", { name: /Ada Lovelace/ })).toContainText("ada@example.com");
    await page.goto("/mailbox");
    const message = page.getByRole("list", { name: "Messages" }).getByRole("link", { name: /Thanks for writing, Ada Lovelace/ });
    await expect(message).toContainText("To ada@example.com");
    await message.click();
    const opened = page.getByRole("region", { name: "Message" });
    await expect(opened).toContainText("Hello Ada Lovelace, we got your message: Please call me back about the engine.");
    await expect(opened).toContainText(/Your lead is rec_[0-9a-z]+\./);
    await screenshot(page, "78-automation-mail");

    // The list: the automation, its trigger and its last run.
    await page.goto(`/projects/${projectId}/automations`);
    const item = page.getByRole("listitem", { name: "Contact form" });
    await expect(item).toContainText("/contact");
    await expect(item).toContainText("Completed");
    await expect(item.getByRole("switch", { name: "Enabled: Contact form" })).toHaveAttribute("aria-checked", "true");
    await screenshot(page, "79-automations-list");
    await expectNoAxeViolations(page, "automations list");
  } finally {
    await new Promise((resolve) => site.server.close(resolve));
  }
});

test("a manual automation runs from the editor with a JSON payload; a failed run is fixed and run again", async ({ page }) => {
  test.setTimeout(180_000);
  const projectId = await setUpLeadsProject(page);
  await page.goto(`/projects/${projectId}/automations/new`);
  await page.getByLabel("Name", { exact: true }).fill("Import lead");
  await expect(page.getByRole("radio", { name: /^Manual/ })).toBeChecked();
  // First version: a CRM call before the write, to a CRM that is down (127.0.0.1:1 refuses; the run allow-lists it).
  await page.getByLabel("Step kind").selectOption({ label: "HTTP request" });
  await page.getByRole("button", { name: "Add step" }).click();
  const crm = page.getByRole("group", { name: "Step 1" });
  await crm.getByLabel("Output name").fill("crm");
  await crm.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:1/leads");
  await addCreateLeadStep(page, 2, { name: "{{trigger.name}}", email: "{{trigger.email}}" });
  await page.getByRole("button", { name: "Create automation" }).click();
  await expect(page).toHaveURL(/\/automations\/aut_[0-9a-z]+$/);
  const automationUrl = new URL(page.url()).pathname;

  // Run now: the payload must be a JSON object; the run is queued and its log opens once it is done.
  const runNow = page.getByRole("region", { name: "Run now" });
  await expect(runNow.getByRole("note")).toContainText("Runs are real");
  await runNow.getByLabel("Payload (JSON)").fill('["not", "an object"]');
  await runNow.getByRole("button", { name: "Run now" }).click();
  await expect(runNow.getByText("The payload must be a JSON object")).toBeVisible();
  await runNow.getByLabel("Payload (JSON)").fill(JSON.stringify({ name: "Grace Hopper", email: "grace@example.com" }, null, 2));
  await runNow.getByRole("button", { name: "Run now" }).click();
  await expect(runNow.getByText(/Run queued as exe_[0-9a-z]+/)).toBeVisible();
  await screenshot(page, "80-automation-run-now");
  await expectNoAxeViolations(page, "automation editor (manual, run queued)");
  const logUrl = await runNow.getByRole("link", { name: "Open its log" }).getAttribute("href");
  expect(logUrl).toMatch(new RegExp(`^/projects/${projectId}/executions/exe_[0-9a-z]+$`));
  await expect(async () => {
    const response = await page.goto(logUrl!);
    expect(response?.status()).toBe(200);
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Automation run");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Failed");
  await expect(page.getByRole("listitem", { name: "Step 1" })).toContainText("HTTP request");
  await expect(page.getByRole("listitem", { name: "Step 2" })).toContainText("Skipped");
  await expect(page.locator("body")).toContainText("Grace Hopper");
  await screenshot(page, "81-automation-run-failed");

  // The runs page lists it failed, with Run again.
  await page.goto(`${automationUrl}/runs`);
  const failed = page.getByRole("row").filter({ hasText: "Failed" });
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText("Manual");
  const runAgain = failed.getByRole("button", { name: /^Run again/ });
  await expect(runAgain).toBeEnabled();
  await screenshot(page, "82-automation-runs-failed");
  await expectNoAxeViolations(page, "automation runs (failed)");

  // The owner drops the CRM call and saves; Run again replays the failed run's payload with the new definition.
  await page.goto(automationUrl);
  await page.getByRole("group", { name: "Step 1" }).getByRole("button", { name: "Remove step" }).click();
  await expect(page.getByRole("group", { name: "Step 1" })).toContainText("Create record");
  await page.getByRole("button", { name: "Save automation" }).click();
  await expect(page.getByText("Automation saved.")).toBeVisible();
  await page.goto(`${automationUrl}/runs`);
  await page
    .getByRole("row")
    .filter({ hasText: "Failed" })
    .getByRole("button", { name: /^Run again/ })
    .click();
  await expect(page.getByRole("status").filter({ hasText: /Queued: exe_[0-9a-z]+/ })).toBeVisible();
  const completed = page.getByRole("row").filter({ hasText: "Completed" });
  await expect(async () => {
    await page.reload();
    await expect(completed).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(completed).toContainText("Manual");
  await expect(page.getByRole("row").filter({ hasText: "Failed" })).toHaveCount(1);
  await screenshot(page, "83-automation-runs-run-again");

  await page.goto(`/projects/${projectId}/records/leads`);
  await expect(page.getByRole("row", { name: /Grace Hopper/ })).toContainText("grace@example.com");
});
