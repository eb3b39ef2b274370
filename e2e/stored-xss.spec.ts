import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

/**
 * Security issue 9, item 10: stored and reflected XSS in Chromium. One user stores hostile text
 * everywhere the platform takes free text (names, record values, template text, execution outputs),
 * then opens every dashboard page that shows it: no script runs (`window.__xss` stays undefined), no
 * dialog opens, no Content-Security-Policy violation is reported (an injected inline handler would be
 * blocked by the policy, and reported), and no injected element or `javascript:` link is in the DOM.
 * Invocation answers of every content type, opened directly with a hostile query, run no script either
 * (the HTML one runs in an opaque origin).
 */
const HOSTILE = `"><img src=x onerror=window.__xss=1><script>window.__xss=1</script>`;
const HOSTILE_ATTRIBUTE = `' autofocus onfocus=window.__xss=1 x='" autofocus onfocus=window.__xss=1 x="`;
const HOSTILE_URL = "javascript:window.__xss=1";
const HOSTILE_LINK = `https://example.com/"><img src=x onerror=window.__xss=1>`;

interface Violations {
  csp: string[];
  dialogs: string[];
}

async function watch(page: Page): Promise<Violations> {
  const found: Violations = { csp: [], dialogs: [] };
  await page.exposeBinding("reportCspViolation", (_source, text: string) => void found.csp.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      void (window as unknown as { reportCspViolation(text: string): Promise<void> }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI} ${location.pathname}`);
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) found.csp.push(`${page.url()}: ${message.text()}`);
  });
  page.on("dialog", (dialog) => {
    found.dialogs.push(`${page.url()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return found;
}

/** What a script of the stored values could have left in the page. */
async function expectNoScriptRan(page: Page, label: string): Promise<void> {
  const state = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: unknown }).__xss,
    handlers: document.querySelectorAll("[onerror],[onfocus],[onload]:not(body):not(link):not(script)").length,
    injectedImages: document.querySelectorAll('img[src="x"]').length,
    // React renders a form whose action is a function with a throwing javascript: action until it hydrates.
    javascriptLinks: [...document.querySelectorAll("a[href],area[href],iframe[src],form[action],button[formaction]")]
      .map((element) => element.getAttribute("href") ?? element.getAttribute("src") ?? element.getAttribute("action") ?? element.getAttribute("formaction") ?? "")
      .filter((url) => /^\s*javascript:/i.test(url) && !url.startsWith("javascript:throw new Error('A React form was unexpectedly submitted.")),
    injectedScripts: [...document.scripts].filter((script) => script.textContent?.trim() === "window.__xss=1").length,
  }));
  expect(state, label).toEqual({ xss: undefined, handlers: 0, injectedImages: 0, javascriptLinks: [], injectedScripts: 0 });
}

async function api(request: APIRequestContext, origin: string, method: string, path: string, data?: unknown) {
  return request.fetch(path, { method, headers: { origin, "content-type": "application/json" }, data: data === undefined ? undefined : JSON.stringify(data) });
}

function pagePatterns(): string[] {
  const out: string[] = [];
  const walk = (folder: string, segments: string[]) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
      else if (entry.name === "page.tsx") out.push(`/${segments.join("/")}`);
    }
  };
  walk(join(process.cwd(), "app/(dashboard)"), []);
  return out.sort();
}

test("hostile text stored everywhere runs no script on any dashboard page, and invocation answers run none either", async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const origin = baseURL!;
  const started = Date.now();
  const found = await watch(page);
  const email = uniqueEmail("xss");
  await signUp(page, { email, name: HOSTILE });
  await expectNoScriptRan(page, "workspaces after sign-up");

  // Workspace and project through the dashboard's own forms.
  await page.getByLabel("Workspace name").fill(HOSTILE);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(/\/workspaces\/ws_[0-9A-Za-z]+$/);
  const workspaceId = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toContainText(HOSTILE);
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a project" });
  await dialog.getByLabel("Project name").fill(HOSTILE_ATTRIBUTE);
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/prj_[0-9a-z]+$/);
  const projectId = page.url().split("/").pop()!;
  await expectNoScriptRan(page, "project overview");
  const base = `/api/projects/${projectId}`;
  const request = page.request;
  const created = async (method: string, path: string, data: unknown, status = 201) => {
    const response = await api(request, origin, method, path, data);
    expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(status);
    return (await response.json()) as { id: string };
  };

  // Schema and field names are restricted; the values of every text-like type are free.
  await created("POST", `${base}/schemas`, {
    name: "notes",
    kind: "collection",
    fields: [
      { name: "title", type: "string" },
      { name: "body", type: "text" },
      { name: "rich", type: "richtext" },
      { name: "link", type: "url" },
      { name: "data", type: "json" },
      { name: "other", type: "string" },
    ],
  });
  expect((await api(request, origin, "POST", `${base}/schemas`, { name: HOSTILE, kind: "collection", fields: [] })).status()).toBe(422);
  expect((await api(request, origin, "POST", `${base}/records/notes`, { link: HOSTILE_URL })).status()).toBe(422);
  const record = await created("POST", `${base}/records/notes`, {
    title: HOSTILE,
    body: HOSTILE_ATTRIBUTE,
    rich: `<p>${HOSTILE}</p><a href="${HOSTILE_URL}">click</a>`,
    link: HOSTILE_LINK,
    data: { [HOSTILE.replaceAll(".", "_")]: HOSTILE_URL, text: HOSTILE },
    other: HOSTILE_URL,
  });

  // An endpoint whose name, group, filters, headers and text are hostile, echoing the query into a step output.
  const echo = await created("POST", `${base}/endpoints`, {
    name: HOSTILE,
    group: HOSTILE_ATTRIBUTE,
    method: "GET",
    slug: "echo",
    auth: "public",
    steps: [
      { type: "transform", name: "echo", expression: "query" },
      { type: "query", name: "notes", schema: "notes", filters: `title={{query.q}}`, limit: 5 },
    ],
    response: { body: `{"echo": {{steps.echo}}, "found": {{steps.notes.length}}, "note": "${HOSTILE.replace(/"/g, '\\"')}"}`, headers: { "X-Note": HOSTILE } },
  });
  const echoed = await request.get(`${base}/fn/echo?q=${encodeURIComponent(HOSTILE)}&u=${encodeURIComponent(HOSTILE_URL)}`);
  expect(echoed.status(), await echoed.text()).toBe(200);
  let executionId = "";
  await expect(async () => {
    const log = (await (await request.get(`${base}/endpoints/${echo.id}/executions`)).json()) as { data: Array<{ id: string }> };
    executionId = log.data[0]?.id ?? "";
    expect(executionId).toMatch(/^exe_/);
  }).toPass({ timeout: 15_000 });

  // One endpoint per content type, each putting the query into its answer.
  const answers: Record<string, string> = {
    "text/html": `<!doctype html><html><body><p id="out">{{query.q}}</p><a id="link" href="{{query.u}}">link</a></body></html>`,
    "application/xml": `<?xml version="1.0"?><root xmlns:h="http://www.w3.org/1999/xhtml"><q>{{query.q}}</q><h:a href="{{query.u}}">link</h:a></root>`,
    "text/csv": "q,u\n{{query.q}},{{query.u}}",
    "text/plain": "{{query.q}} {{query.u}}",
    "application/json": `{"q": "{{query.q}}", "u": "{{query.u}}"}`,
  };
  for (const [index, [contentType, body]] of Object.entries(answers).entries()) {
    await created("POST", `${base}/endpoints`, {
      name: `${contentType} ${HOSTILE}`,
      method: "GET",
      slug: `answer-${index}`,
      auth: "public",
      steps: [],
      response: { contentType, body },
    });
  }

  await created("POST", `${base}/api-keys`, { name: HOSTILE, permissions: ["records.read"] });
  await created("POST", `${base}/email-templates`, { name: "welcome", subject: HOSTILE, html: `<p>${HOSTILE}</p>`, text: HOSTILE });
  expect((await api(request, origin, "POST", `${base}/secrets`, { name: HOSTILE, value: "x" })).status()).toBe(422);
  await created("POST", `${base}/secrets`, { name: "HOSTILE_VALUE", value: HOSTILE });

  // A form automation with a hostile name and redirect URL, and a submission of hostile field names
  // and values, which its run echoes into the log (runs and submissions pages).
  const automation = await created("POST", `${base}/automations`, {
    name: HOSTILE,
    trigger: { type: "form", form: "hostile", redirectUrl: HOSTILE_LINK },
    steps: [{ type: "transform", name: "echo", expression: "trigger.fields" }],
  });
  const submitted = await request.post(`${base}/forms/hostile`, { data: { [HOSTILE.replaceAll(".", "_")]: HOSTILE, link: HOSTILE_URL } });
  expect(submitted.status(), await submitted.text()).toBe(202);
  await expect(async () => {
    const runs = (await (await request.get(`${base}/automations/${automation.id}/executions`)).json()) as { data: Array<{ outcome: string }> };
    expect(runs.data.map((run) => run.outcome)).toEqual(["completed"]);
  }).toPass({ timeout: 30_000 });

  // Every dashboard page, with this project's ids.
  const ids: Record<string, string> = {
    workspaceId,
    projectId,
    endpointId: echo.id,
    executionId,
    schema: "notes",
    name: "notes",
    recordId: record.id,
    automationId: automation.id,
  };
  const visited: string[] = [];
  for (const pattern of pagePatterns()) {
    const path = pattern.replace(/\[(\w+)\]/g, (_, name: string) => ids[name]!);
    const response = await page.goto(path);
    expect(response!.status(), path).toBe(200);
    await page.waitForLoadState("networkidle");
    await expectNoScriptRan(page, path);
    visited.push(path);
  }
  // The hostile text is shown as text where it is stored (the test looks at the right pages).
  await page.goto(`/projects/${projectId}/records/notes/${record.id}`);
  // The record form holds the values in its fields.
  await expect(page.getByLabel("title", { exact: true })).toHaveValue(HOSTILE);
  await expect(page.getByLabel("link", { exact: true })).toHaveValue(HOSTILE_LINK);
  await page.goto(`/projects/${projectId}/executions/${executionId}`);
  await expect(page.locator("body")).toContainText("onerror=window.__xss=1");
  await expectNoScriptRan(page, "execution");
  await page.goto(`/projects/${projectId}/endpoints`);
  await expect(page.locator("body")).toContainText("onerror=window.__xss=1");
  await page.goto(`/projects/${projectId}/endpoints/${echo.id}`);
  await expect(page.getByRole("textbox").and(page.locator(`[value*="onerror=window.__xss=1"]`)).first()).toBeAttached();
  await page.waitForLoadState("networkidle");
  await expectNoScriptRan(page, "endpoint editor");
  // The editor's test run shows each step's output and the answer: the echoed query is text there too.
  await page.getByLabel("Query string").fill(`q=${encodeURIComponent(HOSTILE)}&u=${encodeURIComponent(HOSTILE_URL)}`);
  await page.getByRole("button", { name: "Run test" }).click();
  const result = page.getByRole("region", { name: "Test run result" });
  await expect(result).toContainText("onerror=window.__xss=1");
  await expect(result).toContainText("Answered 200");
  await expectNoScriptRan(page, "endpoint test run");
  await page.goto(`/projects/${projectId}/automations/${automation.id}/submissions`);
  await expect(page.getByRole("table")).toContainText("onerror=window.__xss=1");
  await page.goto(`/projects/${projectId}/automations/${automation.id}`);
  await expect(page.getByLabel("Redirect URL")).toHaveValue(HOSTILE_LINK);
  await expect(page.getByLabel("Form HTML", { exact: true })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expectNoScriptRan(page, "automation editor");
  await page.goto(`/workspaces/${workspaceId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(HOSTILE);

  // Reflected: hostile ids in every page's path, and hostile query parameters.
  for (const pattern of pagePatterns().filter((p) => p.includes("["))) {
    const path = pattern.replace(/\[(\w+)\]/g, (_, name: string) => (name === "projectId" ? projectId : encodeURIComponent(HOSTILE)));
    await page.goto(path);
    await expectNoScriptRan(page, `reflected ${pattern}`);
  }
  await page.goto(`/workspaces?error=${encodeURIComponent(HOSTILE)}&callbackUrl=${encodeURIComponent(HOSTILE_URL)}`);
  await expectNoScriptRan(page, "reflected query");

  expect(found.dialogs).toEqual([]);
  expect(found.csp).toEqual([]);

  // Invocation answers of every content type, opened directly with a hostile query.
  for (const [index, contentType] of Object.keys(answers).entries()) {
    const url = `${base}/fn/answer-${index}?q=${encodeURIComponent(HOSTILE)}&u=${encodeURIComponent(HOSTILE_URL)}`;
    if (contentType === "text/csv") {
      // Chromium downloads CSV instead of showing it: nothing renders, nothing runs. The field is one quoted CSV value.
      const download = page.waitForEvent("download");
      await page.goto(url).catch(() => null);
      await (await download).cancel();
      const answer = await request.get(url);
      expect(answer.headers()["content-type"]).toContain("text/csv");
      expect(answer.headers()["content-security-policy"]).toMatch(/^sandbox /);
      expect(await answer.text()).toBe(`q,u\n"${HOSTILE.replace(/"/g, '""')}",${HOSTILE_URL}`);
      continue;
    }
    const response = await page.goto(url);
    expect(response!.status(), contentType).toBe(200);
    expect(response!.headers()["content-type"], contentType).toContain(contentType);
    expect(response!.headers()["content-security-policy"], contentType).toMatch(/^sandbox /);
    expect(response!.headers()["x-content-type-options"]).toBe("nosniff");
    const state = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: unknown }).__xss,
      origin: window.origin,
      images: document.querySelectorAll("img").length,
    }));
    expect(state.xss, contentType).toBeUndefined();
    expect(state.images, contentType).toBe(0);
    // The sandbox makes the page an opaque origin: even script in it would not act as the dashboard.
    expect(state.origin, contentType).toBe("null");
    if (contentType === "text/html") {
      // The query is text in the page, not markup.
      await expect(page.locator("#out")).toHaveText(HOSTILE);
    }
  }
  expect(found.dialogs).toEqual([]);
  console.log(`pages visited: ${visited.length} in ${Date.now() - started}ms`);
});
