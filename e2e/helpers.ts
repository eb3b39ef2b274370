import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect, type Page } from "@playwright/test";

export const ARTIFACTS_DIR = "e2e/artifacts";

/** A fresh address per run, so the suite also passes against a platform database that is not new. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

/**
 * A full-page screenshot of the current screen, kept under e2e/artifacts/ for people to look at, once
 * axe-core finds no violation on it: every screen the suite reaches is checked.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await expectNoAxeViolations(page, name);
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

let axeSource: string | undefined;

interface AxeFinding {
  rule: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (every rule but the experimental ones, as @axe-core/playwright does) on the current
 * page once it has settled, and expects no violation anywhere on it, the shared dashboard layout
 * included. axe is evaluated through the DevTools protocol, which the pages' Content-Security-Policy
 * does not apply to.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  axeSource ??= readFileSync(createRequire(join(process.cwd(), "package.json")).resolve("axe-core/axe.min.js"), "utf8");
  await page.waitForLoadState("networkidle");
  // After an in-app navigation Next writes the new page's <title> from its streamed metadata, which
  // may land after the content is visible and the network is idle: wait for it, as a reader would.
  await expect.soft(page, `a title on ${label}`).toHaveTitle(/\S/);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const findings = await page.evaluate(async (): Promise<AxeFinding[]> => {
    type AxeNode = { target: unknown[]; failureSummary?: string };
    type Violation = { id: string; impact: string | null; help: string; nodes: AxeNode[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => `${JSON.stringify(node.target)}: ${node.failureSummary ?? ""}`),
    }));
  });
  // Soft: a test goes on to its next screens, so one run lists every screen's violations.
  expect.soft(findings, `axe on ${label} (${page.url()})`).toEqual([]);
}
