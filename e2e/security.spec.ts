import { expect, test, type APIRequestContext } from "@playwright/test";
import { createProject, createWorkspace, signIn, signOut, signUp, uniqueEmail } from "./helpers";

/**
 * Security issue 9 in a real browser: an owner's HTML endpoint runs in an opaque origin and cannot
 * act as the signed-in visitor (item 1), and the dashboard's own pages run under a nonce-based
 * Content-Security-Policy and still hydrate (item 7).
 */

async function listApiKeys(request: APIRequestContext, projectId: string): Promise<Array<{ name: string }>> {
  const response = await request.get(`/api/projects/${projectId}/api-keys`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Array<{ name: string }> }).data;
}

/**
 * The takeover attempt of the bug report: from the owner's page, read the visitor's dashboard and
 * management API, and create an API key in the visitor's project (the project id arrives in the
 * link), every way a page can try; then write what it got into the page.
 */
const TAKEOVER_PAGE = `<!doctype html>
<html lang="en"><head><title>A great offer</title></head>
<body><h1>A great offer</h1><pre id="report">running</pre>
<script>
(async () => {
  const victim = new URLSearchParams(location.search).get("victim");
  const key = JSON.stringify({ name: "stolen", permissions: ["records.read"] });
  const report = { origin: window.origin, cookie: null, storage: null, attempts: {} };
  try { report.cookie = document.cookie; } catch (error) { report.cookie = "blocked"; }
  try { report.storage = String(window.localStorage.length); } catch (error) { report.storage = "blocked"; }
  async function attempt(label, url, init) {
    try {
      const response = await fetch(url, init);
      report.attempts[label] = { status: response.status, type: response.type, body: (await response.text()).slice(0, 300) };
    } catch (error) {
      report.attempts[label] = { error: String(error) };
    }
  }
  await attempt("workspaces page", "/workspaces", { credentials: "include" });
  await attempt("project page", "/projects/" + victim, { credentials: "include" });
  await attempt("api keys page", "/projects/" + victim + "/api-keys", { credentials: "include" });
  await attempt("list api keys", "/api/projects/" + victim + "/api-keys", { credentials: "include" });
  await attempt("session", "/api/auth/session", { credentials: "include" });
  await attempt("create api key", "/api/projects/" + victim + "/api-keys", {
    method: "POST", credentials: "include", headers: { "content-type": "application/json" }, body: key,
  });
  await attempt("create api key without cors", "/api/projects/" + victim + "/api-keys", {
    method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: key,
  });
  document.getElementById("report").textContent = JSON.stringify(report);
})();
</script></body></html>`;

interface TakeoverReport {
  origin: string;
  cookie: string;
  storage: string;
  attempts: Record<string, { status?: number; type?: string; body?: string; error?: string }>;
}

test("an owner's HTML endpoint runs sandboxed: a signed-in visitor of another workspace loses nothing to it", async ({ browser }) => {
  test.setTimeout(180_000);
  const victimContext = await browser.newContext();
  const attackerContext = await browser.newContext();
  try {
    // B, the victim: a workspace and a project of their own, signed in.
    const victim = await victimContext.newPage();
    await signUp(victim, { email: uniqueEmail("victim") });
    await createWorkspace(victim, "Victim workspace");
    const victimProjectId = await createProject(victim, "Victim project");
    expect(await listApiKeys(victim.request, victimProjectId)).toEqual([]);

    // A, the attacker: publishes a public text/html endpoint whose body is the takeover script.
    const attacker = await attackerContext.newPage();
    await signUp(attacker, { email: uniqueEmail("attacker") });
    await createWorkspace(attacker, "Attacker workspace");
    const attackerProjectId = await createProject(attacker, "Offers");
    const created = await attacker.request.post(`/api/projects/${attackerProjectId}/endpoints`, {
      data: { name: "Offer", method: "GET", slug: "offer", auth: "public", response: { contentType: "text/html", body: TAKEOVER_PAGE } },
    });
    expect(created.status(), await created.text()).toBe(201);
    // Nor can the owner lift the sandbox through the endpoint's own headers.
    const lifted = await attacker.request.post(`/api/projects/${attackerProjectId}/endpoints`, {
      data: {
        name: "Offer 2",
        method: "GET",
        slug: "offer-2",
        response: { contentType: "text/html", body: "<p>hi</p>", headers: { "Content-Security-Policy": "sandbox allow-scripts allow-same-origin" } },
      },
    });
    expect(lifted.status()).toBe(422);

    // B opens the link.
    const opened = await victim.goto(`/api/projects/${attackerProjectId}/fn/offer?victim=${victimProjectId}`);
    const policy = opened!.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/^sandbox /);
    expect(policy).not.toContain("allow-same-origin");
    expect(opened!.headers()["x-content-type-options"]).toBe("nosniff");
    await expect(victim.locator("#report")).not.toHaveText("running", { timeout: 30_000 });
    const report = JSON.parse((await victim.locator("#report").textContent())!) as TakeoverReport;

    // The script ran, in an opaque origin: no cookie, no storage of the dashboard's origin
    // (Chromium throws on reading either in a sandbox without allow-same-origin).
    expect(report.origin).toBe("null");
    expect(["", "blocked"]).toContain(report.cookie);
    expect(report.storage).toBe("blocked");
    // It read nothing: every request either failed or came back opaque, empty-handed.
    for (const [label, attempt] of Object.entries(report.attempts)) {
      if (attempt.error === undefined) {
        expect(attempt.type, label).toBe("opaque");
        expect(attempt.status, label).toBe(0);
        expect(attempt.body, label).toBe("");
      } else expect(attempt.error, label).toContain("Failed to fetch");
    }
    expect(JSON.stringify(report)).not.toContain("Victim project");
    expect(JSON.stringify(report)).not.toContain("fpk_");

    // And it created nothing in B's project, as B's own dashboard and API show.
    expect(await listApiKeys(victim.request, victimProjectId)).toEqual([]);
    await victim.goto(`/projects/${victimProjectId}/api-keys`);
    await expect(victim.getByText("No API keys yet")).toBeVisible();
  } finally {
    await victimContext.close();
    await attackerContext.close();
  }
});

test("dashboard pages carry a nonce-based policy, refuse framing, and still hydrate without a violation", async ({ page }) => {
  test.setTimeout(120_000);
  // Every violation on every page of the test, reported through a binding, which the pages' policy does not govern.
  const violations: string[] = [];
  await page.exposeBinding("reportCspViolation", (_source, text: string) => void violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      void (window as unknown as { reportCspViolation(text: string): Promise<void> }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI} ${location.pathname}`);
    });
  });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });

  const signUpPage = await page.goto("/sign-up");
  expect(signUpPage!.headers()["content-security-policy"]).toContain("'strict-dynamic'");
  const email = uniqueEmail("csp");
  await signUp(page, { email });
  const workspaceId = await createWorkspace(page, "Policy workspace");

  const response = await page.goto(`/workspaces/${workspaceId}`);
  const headers = response!.headers();
  const policy = headers["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce, policy).toBeTruthy();
  expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  // http here: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
  // Next put the request's nonce on its own scripts.
  const nonced = await page.evaluate((expected) => [...document.scripts].filter((script) => script.nonce === expected).length, nonce!);
  expect(nonced).toBeGreaterThan(0);
  // A fresh nonce on every request.
  const again = await page.request.get(`/workspaces/${workspaceId}`);
  expect(again.headers()["content-security-policy"]).not.toContain(nonce!);

  // Hydrated: the dialog opens, and a project is created through it.
  await page.getByRole("button", { name: "New project" }).click();
  await expect(page.getByRole("dialog", { name: "Create a project" })).toBeVisible();
  await page.keyboard.press("Escape");
  const projectId = await createProject(page, "Policy project");
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Endpoints" }).click();
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await page.goto(`/projects/${projectId}/endpoints/new`);
  // The preview follows the slug only once React has hydrated; on a slow machine a fill can come
  // before that and be lost, so it is typed again until the hydrated page shows it.
  await expect(async () => {
    await page.getByLabel("Slug").fill("hello");
    await expect(page.getByTestId("invocation-url")).toHaveText(`http://localhost:3100/api/projects/${projectId}/fn/hello`, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // Route handlers answer data that must not be sniffed or framed.
  const api = await page.request.get(`/api/projects/${projectId}/endpoints`);
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  // Framing is refused: the dashboard does not render inside another page.
  await page.setContent(`<iframe id="frame" src="http://localhost:3100/workspaces/${workspaceId}" title="framed"></iframe>`);
  const frame = page.frameLocator("#frame");
  await expect(frame.getByRole("heading", { name: "Policy workspace" })).toHaveCount(0, { timeout: 3_000 });

  // next-auth's sign-out and credentials sign-in (fetches to this origin) work under the policy.
  await page.goto(`/workspaces/${workspaceId}`);
  await signOut(page);
  await signIn(page, { email });
  await expect(page).toHaveURL(/\/workspaces/);
  await expect(page.getByTestId("current-user-email")).toHaveText(email);

  expect(violations).toEqual([]);
  expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text) && !text.includes("frame-ancestors"))).toEqual([]);
});
