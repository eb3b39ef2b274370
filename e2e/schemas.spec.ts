import { expect, test, type Page } from "@playwright/test";
import { createProject, createWorkspace, screenshot, signUp, uniqueEmail } from "./helpers";

/** The name inputs of the editor's fields, top to bottom. */
/** End-user mail is sent after the answer (so its timing reveals nothing): reload the mailbox until the message is there. */
async function openMailboxUntil(page: Page, subject: string): Promise<void> {
  await expect(async () => {
    await page.goto("/mailbox");
    await expect(page.getByRole("region", { name: "Message" })).toContainText(subject, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

async function fieldNames(page: Page): Promise<string[]> {
  const groups = page.getByRole("group", { name: /^Field \d+$/ });
  const names: string[] = [];
  for (let index = 0; index < (await groups.count()); index++) names.push(await groups.nth(index).getByLabel("Name", { exact: true }).inputValue());
  return names;
}

test("schema editor: create a schema with typed fields, reorder, rename and remove fields with confirmation, delete it with its records", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, { email: uniqueEmail("modeller") });
  await createWorkspace(page, "Newsroom");
  const projectId = await createProject(page, "Magazine");

  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Schemas" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Schemas" })).toBeVisible();
  await expect(page.getByText("No schemas yet")).toBeVisible();
  await screenshot(page, "40-schemas-empty");
  await page.getByRole("link", { name: "New schema" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New schema" })).toBeVisible();

  await page.getByLabel("Schema name").fill("articles");
  const first = page.getByRole("group", { name: "Field 1" });
  await first.getByLabel("Name", { exact: true }).fill("title");
  await first.getByLabel("Required").check();
  await first.getByLabel("Maximum length").fill("200");

  await page.getByRole("button", { name: "Add field" }).click();
  const second = page.getByRole("group", { name: "Field 2" });
  await second.getByLabel("Name", { exact: true }).fill("status");
  await second.getByLabel("Type").selectOption({ label: "Choice (enum)" });
  await second.getByLabel("Values").fill("draft\npublished");
  await second.getByLabel("Default").selectOption("draft");

  await page.getByRole("button", { name: "Add field" }).click();
  const third = page.getByRole("group", { name: "Field 3" });
  await third.getByLabel("Name", { exact: true }).fill("views");
  await third.getByLabel("Type").selectOption({ label: "Integer" });
  await third.getByLabel("Minimum", { exact: true }).fill("0");

  await page.getByRole("button", { name: "Add field" }).click();
  const fourth = page.getByRole("group", { name: "Field 4" });
  await fourth.getByLabel("Type").selectOption({ label: "Long text" });
  // A field without a name: the server's issue appears next to that field's name input.
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(fourth.getByText(/must start with a letter/i)).toBeVisible();
  await screenshot(page, "41-schema-editor-validation");
  await fourth.getByLabel("Name", { exact: true }).fill("summary");
  await screenshot(page, "42-schema-editor-new");
  await page.getByRole("button", { name: "Create schema" }).click();

  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/schemas/articles$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("articles");
  expect(await fieldNames(page)).toEqual(["title", "status", "views", "summary"]);

  // Reorder: views moves above status. Nothing stored changes, so it saves without asking.
  await page.getByRole("group", { name: "Field 3" }).getByRole("button", { name: "Move up" }).click();
  expect(await fieldNames(page)).toEqual(["title", "views", "status", "summary"]);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Schema saved." })).toBeVisible();
  await page.reload();
  expect(await fieldNames(page)).toEqual(["title", "views", "status", "summary"]);

  // Rename: saved as remove + add, so the editor shows what happens to stored values and asks first.
  await page.getByRole("group", { name: "Field 4" }).getByLabel("Name", { exact: true }).fill("excerpt");
  await page.getByRole("button", { name: "Save changes" }).click();
  const confirmation = page.getByRole("alertdialog", { name: "This change affects data already stored" });
  await expect(confirmation).toContainText("Renaming is saved as removing “summary” and adding “excerpt”");
  await expect(confirmation).toContainText('Field "summary" is removed from the API');
  await screenshot(page, "43-schema-rename-confirmation");
  await confirmation.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Schema saved." })).toBeVisible();

  // Remove a field: asked again, and "Keep editing" leaves it unsaved.
  await page.getByRole("group", { name: "Field 4" }).getByRole("button", { name: "Remove field" }).click();
  expect(await fieldNames(page)).toEqual(["title", "views", "status"]);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(confirmation).toContainText('Field "excerpt" is removed from the API');
  await confirmation.getByRole("button", { name: "Keep editing" }).click();
  await page.reload();
  expect(await fieldNames(page)).toEqual(["title", "views", "status", "excerpt"]);
  await page.getByRole("group", { name: "Field 4" }).getByRole("button", { name: "Remove field" }).click();
  await page.getByRole("button", { name: "Save changes" }).click();
  await confirmation.getByRole("button", { name: "Confirm and save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Schema saved." })).toBeVisible();
  await page.reload();
  expect(await fieldNames(page)).toEqual(["title", "views", "status"]);
  // Saved options come back collapsed, summarised, and open on demand.
  const status = page.getByRole("group", { name: "Field 3" });
  await expect(status.getByRole("button", { name: /Options · 2 values, default/ })).toBeVisible();
  await status.getByRole("button", { name: /Options/ }).click();
  await expect(status.getByLabel("Values")).toHaveValue("draft\npublished");
  await screenshot(page, "44-schema-editor-saved");

  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Schemas" }).click();
  const row = page.getByRole("row", { name: /articles/ });
  await expect(row).toContainText("Collection");
  await expect(row).toContainText("3");
  await screenshot(page, "45-schemas-list");

  // A record, created in the records browser, then the schema deleted with it after a second confirmation.
  await row.getByRole("link", { name: "Records" }).click();
  await page.getByRole("link", { name: "New record" }).click();
  // The record form: one control per field, generated from the schema.
  await page.getByRole("textbox", { name: /^title/ }).fill("Hello");
  await page.getByRole("spinbutton", { name: /^views/ }).fill("3");
  await page.getByRole("combobox", { name: /^status/ }).selectOption("published");
  await page.getByRole("button", { name: "Create record" }).click();
  await expect(page).toHaveURL(/\/records\/articles\/rec_/);
  await page.getByRole("link", { name: "articles" }).last().click();
  await expect(page.getByRole("row", { name: /Hello/ })).toBeVisible();
  await screenshot(page, "46-records-list");

  await page.goto(`/projects/${projectId}/schemas/articles`);
  await page.getByRole("button", { name: "Delete schema" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete schema articles?" });
  await dialog.getByRole("button", { name: "Delete schema" }).click();
  await expect(dialog.getByRole("alert")).toContainText("articles still has 1 record.");
  await screenshot(page, "47-schema-delete-confirmation");
  await dialog.getByRole("button", { name: "Delete schema and records" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/schemas$`));
  await expect(page.getByText("No schemas yet")).toBeVisible();
});

test("record form: a file at the top level and one inside a component are uploaded with the save and downloadable", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, { email: uniqueEmail("archivist") });
  await createWorkspace(page, "Archive");
  const projectId = await createProject(page, "Albums");
  const origin = new URL(page.url()).origin;
  const base = `/api/projects/${projectId}`;
  // The schemas are not what this test is about: created through the API with the owner's session.
  for (const definition of [
    {
      name: "photo_card",
      kind: "component",
      fields: [
        { name: "caption", type: "string" },
        { name: "photo", type: "file", accept: ["image/*"] },
      ],
    },
    {
      name: "albums",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "cover", type: "file" },
        { name: "cards", type: "component", component: "photo_card", repeatable: true },
      ],
    },
  ]) {
    // A project's first schema opens its embedded database, which on a loaded machine can outlast a claim deadline: tried again.
    await expect(async () => {
      if ((await page.request.get(`${base}/schemas/${definition.name}`)).status() === 200) return;
      const response = await page.request.post(`${base}/schemas`, { headers: { origin, "content-type": "application/json" }, data: JSON.stringify(definition) });
      expect(response.status(), await response.text()).toBe(201);
    }).toPass({ timeout: 60_000, intervals: [1_000] });
  }

  await page.goto(`/projects/${projectId}/records/albums/new`);
  await page.getByRole("textbox", { name: /^title/ }).fill("Summer");
  await page.getByLabel(/^cover/).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("top-level notes") });
  await page.getByRole("button", { name: "Add photo_card to cards" }).click();
  await page.getByRole("button", { name: "Add photo_card to cards" }).click();
  const second = page.getByRole("group", { name: "cards photo_card 2 of 2" });
  await second.getByRole("textbox", { name: /^caption/ }).fill("Beach");
  await second.getByLabel(/^photo/).setInputFiles({ name: "beach.png", mimeType: "image/png", buffer: Buffer.from("beach pixels") });
  await expect(second.getByText("To upload: beach.png")).toBeVisible();
  // Moved up, the chosen file goes with its item.
  await second.getByRole("button", { name: "Move cards photo_card 2 of 2 up" }).click();
  const first = page.getByRole("group", { name: "cards photo_card 1 of 2" });
  await expect(first.getByText("To upload: beach.png")).toBeVisible();
  // screenshot() also runs axe on the page.
  await screenshot(page, "90-record-form-files-chosen");
  await page.getByRole("button", { name: "Create record" }).click();
  await expect(page).toHaveURL(/\/records\/albums\/rec_/);

  const saved = page.getByRole("group", { name: "cards photo_card 1 of 2" });
  const link = saved.getByRole("link", { name: /^fil_/ });
  await expect(link).toBeVisible();
  const download = await page.request.get((await link.getAttribute("href"))!);
  expect(download.status()).toBe(200);
  expect(await download.text()).toBe("beach pixels");
  expect(download.headers()["content-disposition"]).toContain('filename="beach.png"');
  const cover = await page.request.get((await page.getByRole("link", { name: /^fil_/ }).first().getAttribute("href"))!);
  expect(await cover.text()).toBe("top-level notes");
  await expect(page.getByRole("group", { name: "cards photo_card 2 of 2" }).getByRole("link", { name: /^fil_/ })).toHaveCount(0);
  await screenshot(page, "91-record-files-saved");
});

test("end-user pages: an auth schema's verification and password-reset links work without a dashboard session", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signUp(page, { email: uniqueEmail("siteowner") });
  await createWorkspace(page, "Shop");
  const projectId = await createProject(page, "Storefront");

  // An auth schema, made in the editor.
  await page.goto(`/projects/${projectId}/schemas/new`);
  await page.getByLabel("Schema name").fill("members");
  await page.getByRole("radio", { name: /Auth/ }).check();
  await expect(page.getByText("Built in:")).toBeVisible();
  await page.getByRole("group", { name: "Field 1" }).getByLabel("Name", { exact: true }).fill("nickname");
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(page).toHaveURL(/\/schemas\/members$/);

  const member = uniqueEmail("member");
  const auth = `/api/projects/${projectId}/auth/members`;
  const registered = await page.request.post(`${auth}/register`, { data: { email: member, password: "first password 1", nickname: "ada" } });
  expect(registered.status()).toBe(201);

  // The verification mail (kept in the local mailbox) links to the public verify page.
  const message = page.getByRole("region", { name: "Message" });
  await openMailboxUntil(page, "Confirm your email address");
  const verifyLink = await message.getByRole("link", { name: /\/verify\?token=/ }).getAttribute("href");
  expect(verifyLink).toContain(`/auth/${projectId}/members/verify?token=`);

  const visitor = await browser.newContext();
  const endUser = await visitor.newPage();
  await endUser.goto(verifyLink!);
  await expect(endUser.getByRole("heading", { name: "Your email address is confirmed" })).toBeVisible();
  await screenshot(endUser, "48-end-user-email-verified");
  // The token is single-use: the same link again says so plainly.
  await endUser.reload();
  await expect(endUser.getByRole("heading", { name: "Your email address could not be confirmed" })).toBeVisible();
  await expect(endUser.getByRole("alert").filter({ hasText: "invalid or has already been used" })).toBeVisible();
  await endUser.goto(`/auth/${projectId}/members/verify`);
  await expect(endUser.getByRole("heading", { name: "This link is incomplete" })).toBeVisible();

  // Password reset: the mailed link opens a form that sets the new password.
  expect((await page.request.post(`${auth}/request-password-reset`, { data: { email: member } })).status()).toBeLessThan(300);
  await openMailboxUntil(page, "Reset your password");
  const resetLink = await message.getByRole("link", { name: /\/reset-password\?token=/ }).getAttribute("href");
  await endUser.goto(resetLink!);
  await expect(endUser.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await endUser.getByLabel("New password", { exact: true }).fill("second password 2");
  await endUser.getByLabel("Repeat the new password").fill("something else");
  await endUser.getByRole("button", { name: "Save new password" }).click();
  await expect(endUser.getByRole("alert").filter({ hasText: "The two passwords are not the same." })).toBeVisible();
  await screenshot(endUser, "49-end-user-reset-password");
  await endUser.getByLabel("Repeat the new password").fill("second password 2");
  await endUser.getByRole("button", { name: "Save new password" }).click();
  await expect(endUser.getByRole("heading", { name: "Your password has been changed" })).toBeVisible();
  await visitor.close();

  expect((await page.request.post(`${auth}/login`, { data: { email: member, password: "first password 1" } })).status()).toBe(401);
  expect((await page.request.post(`${auth}/login`, { data: { email: member, password: "second password 2" } })).status()).toBe(200);
});
