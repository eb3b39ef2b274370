import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

export const ARTIFACTS_DIR = "e2e/artifacts";

/** A fresh address per run, so the suite also passes against a platform database that is not new. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

/** A full-page screenshot of the current screen, kept under e2e/artifacts/ for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  // A full-page capture of a scrolled page draws the sticky top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${ARTIFACTS_DIR}/${name}.png`, fullPage: true });
}

export async function signUp(page: Page, options: { email: string; password?: string; name?: string; shot?: string }): Promise<void> {
  await page.goto("/sign-up");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  if (options.name) await page.getByLabel("Name").fill(options.name);
  await page.getByLabel("Email").fill(options.email);
  await page.getByLabel("Password").fill(options.password ?? PASSWORD);
  if (options.shot) await screenshot(page, options.shot);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/workspaces$/);
}

export async function signIn(page: Page, options: { email: string; password?: string }): Promise<void> {
  await page.getByLabel("Email").fill(options.email);
  await page.getByLabel("Password").fill(options.password ?? PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

export async function createWorkspace(page: Page, name: string): Promise<string> {
  await page.goto("/workspaces");
  await page.getByLabel("Workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(/\/workspaces\/ws_[0-9A-Za-z]+$/);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();
  return page.url().split("/").pop()!;
}

/** From a workspace page: the New project dialog; answers the new project's id. */
export async function createProject(page: Page, name: string): Promise<string> {
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a project" });
  await dialog.getByLabel("Project name").fill(name);
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/prj_[0-9a-z]+$/);
  return page.url().split("/").pop()!;
}
