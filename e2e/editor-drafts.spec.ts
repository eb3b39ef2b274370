import { expect, test, type Page } from "@playwright/test";
import { createProject, createWorkspace, screenshot, signUp, uniqueEmail } from "./helpers";

/**
 * Issue 13, item 1: unsaved changes are kept in the page's storage and guarded. A visit with nothing
 * stored offers nothing; an edit survives a reload and is offered back (Restore puts it in the
 * editor, Discard drops it for good); leaving through an in-app link with unsaved changes asks first.
 */

async function editorOfNewEndpoint(page: Page, origin: string): Promise<string> {
  await signUp(page, { email: uniqueEmail("drafts") });
  await createWorkspace(page, "Drafts workspace");
  const projectId = await createProject(page, "Drafts project");
  const response = await page.request.post(`/api/projects/${projectId}/endpoints`, {
    headers: { origin, "content-type": "application/json" },
    data: JSON.stringify({
      name: "Saved name",
      method: "GET",
      slug: "drafted",
      auth: "public",
      steps: [],
      response: { status: 200, contentType: "application/json", body: '{"ok": true}', headers: {} },
    }),
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return `/projects/${projectId}/endpoints/${id}`;
}

test("the endpoint editor keeps unsaved changes across a reload, offers them back and asks before leaving", async ({ page, baseURL }) => {
  const editor = await editorOfNewEndpoint(page, baseURL!);
  const offer = page.getByRole("region", { name: "Unsaved changes" });

  await page.goto(editor);
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveValue("Saved name");
  await expect(offer).toHaveCount(0);

  await name.fill("Edited but not saved");
  // The draft is written after a pause in typing.
  await page.waitForTimeout(600);
  // The reload's own "leave site?" prompt is accepted.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await expect(offer).toContainText("Restore unsaved changes from");
  await expect(name).toHaveValue("Saved name");
  await screenshot(page, "editor-draft-offer");
  await offer.getByRole("button", { name: "Restore" }).click();
  await expect(name).toHaveValue("Edited but not saved");
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes restored" })).toBeFocused();

  // An in-app link asks first; refusing stays on the page with the draft.
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Endpoints" }).click();
  await expect.poll(() => asked).toContain("You have unsaved changes");
  await expect(page).toHaveURL(new RegExp(`${editor}$`));
  await expect(name).toHaveValue("Edited but not saved");

  // Discarded: the next visit offers nothing and shows the saved definition.
  await page.waitForTimeout(600);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await offer.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes discarded" })).toBeVisible();
  await page.reload();
  await expect(name).toHaveValue("Saved name");
  await expect(offer).toHaveCount(0);
});
