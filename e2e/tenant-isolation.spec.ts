import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page, type PlaywrightWorkerArgs } from "@playwright/test";
import { createProject, createWorkspace, signUp, uniqueEmail } from "./helpers";
import { SERVER_ACTION_COVERAGE, crossTenantActionNames } from "./tenant-isolation-inventory";

/**
 * Security issue 9, item 10: tenant isolation. Two users, each alone in a workspace with a project
 * that has a schema, a record, an endpoint with an execution, an API key, an email template, a
 * secret and a form automation (made with the key) with a submission and failed runs. User B then
 * tries every dashboard page, every management route and every server action with A's ids (and
 * with B's own project and A's sub-ids): each is a not-found that shows none of A's names or
 * values, and A's data is unchanged afterwards.
 */

interface Tenant {
  label: string;
  email: string;
  context: BrowserContext;
  page: Page;
  userId: string;
  workspaceId: string;
  workspaceName: string;
  projectId: string;
  projectName: string;
  schema: string;
  field: string;
  recordId: string;
  recordValue: string;
  endpointId: string;
  endpointName: string;
  slug: string;
  executionId: string;
  keyId: string;
  keyName: string;
  key: string;
  templateId: string;
  templateName: string;
  secretName: string;
  secretValue: string;
  automationId: string;
  automationName: string;
  /** The automation's form slug (`POST /api/projects/:projectId/forms/:form`). */
  form: string;
  submissionValue: string;
  /** A failed run of the automation, started with the management API's /run. */
  runId: string;
}

const ROOT = process.cwd();
let origin = "";
let a: Tenant;
let b: Tenant;

/** JSON to the management API with the session cookie, as the dashboard's own fetches send it (the CSRF rule wants the Origin). */
function jsonHeaders(): Record<string, string> {
  return { origin, "content-type": "application/json" };
}

async function api(request: APIRequestContext, method: string, path: string, data?: unknown) {
  return request.fetch(path, { method, headers: jsonHeaders(), data: data === undefined ? undefined : JSON.stringify(data) });
}

async function apiJson<T>(request: APIRequestContext, method: string, path: string, data?: unknown, status = 200): Promise<T> {
  const response = await api(request, method, path, data);
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

async function setUpTenant(browser: Browser, playwright: PlaywrightWorkerArgs["playwright"], label: string): Promise<Tenant> {
  const tag = `${label}${randomBytes(3).toString("hex")}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail(`tenant-${label}`);
  await signUp(page, { email, name: `${label} user` });
  const workspaceName = `${tag} workspace`;
  const workspaceId = await createWorkspace(page, workspaceName);
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user?: { id?: string } };
  const userId = session.user?.id;
  const projectName = `${tag} project`;
  const projectId = await createProject(page, projectName);
  const request = page.request;
  const base = `/api/projects/${projectId}`;

  const schema = `${label}_notes`;
  const field = `${tag}_field`;
  await apiJson(
    request,
    "POST",
    `${base}/schemas`,
    {
      name: schema,
      kind: "collection",
      fields: [
        { name: field, type: "string" },
        { name: "body", type: "text" },
      ],
    },
    201,
  );
  const recordValue = `${tag} record value`;
  const record = await apiJson<{ id: string }>(request, "POST", `${base}/records/${schema}`, { [field]: recordValue, body: `${tag} body` }, 201);
  const slug = `${label}-list`;
  const endpointName = `${tag} endpoint`;
  const endpoint = await apiJson<{ id: string }>(
    request,
    "POST",
    `${base}/endpoints`,
    { name: endpointName, method: "GET", slug, auth: "public", steps: [{ type: "query", name: "notes", schema, limit: 10 }], response: { body: "{{steps.notes}}" } },
    201,
  );
  const invoked = await request.get(`${base}/fn/${slug}`);
  expect(invoked.status(), await invoked.text()).toBe(200);
  expect(await invoked.text()).toContain(recordValue);
  let executionId = "";
  await expect(async () => {
    const executions = await apiJson<{ data: Array<{ id: string }> }>(request, "GET", `${base}/endpoints/${endpoint.id}/executions`);
    executionId = executions.data[0]?.id ?? "";
    expect(executionId).toMatch(/^exe_/);
  }).toPass({ timeout: 15_000 });
  const keyName = `${tag} key`;
  const key = await apiJson<{ id: string; key: string }>(
    request,
    "POST",
    `${base}/api-keys`,
    { name: keyName, permissions: ["records.read", "endpoints.read", "schemas.read", "automations.read", "automations.write", "automations.run"] },
    201,
  );
  const templateName = `${label}_welcome`;
  const template = await apiJson<{ id: string }>(request, "POST", `${base}/email-templates`, { name: templateName, subject: `${tag} subject`, text: `${tag} template text` }, 201);
  const secretName = `${label.toUpperCase()}_SECRET_${randomBytes(2).toString("hex").toUpperCase()}`;
  const secretValue = `${tag}-secret-value`;
  await apiJson(request, "POST", `${base}/secrets`, { name: secretName, value: secretValue }, 201);
  expect(userId, "the user id of the session").toMatch(/^usr_/);

  // A form automation made with the key alone (no cookie), whose flow calls a "CRM" that refuses the
  // connection (127.0.0.1:1, allow-listed for the run): every run of it fails, and can be run again.
  const withKey = await playwright.request.newContext({ baseURL: origin, extraHTTPHeaders: { authorization: `Bearer ${key.key}` } });
  const automationName = `${tag} automation`;
  const form = `${tag}-contact`;
  const automation = await apiJson<{ id: string }>(
    withKey,
    "POST",
    `${base}/automations`,
    {
      name: automationName,
      trigger: { type: "form", form },
      steps: [{ type: "http", name: "crm", method: "POST", url: "http://127.0.0.1:1/crm", body: '{"email": "{{trigger.fields.email}}"}' }],
    },
    201,
  );
  const submissionValue = `${tag} submitted value`;
  const submitted = await withKey.post(`${base}/forms/${form}`, { data: { email: `${tag}@example.com`, note: submissionValue } });
  expect(submitted.status(), await submitted.text()).toBe(202);
  const run = await apiJson<{ executionId: string }>(withKey, "POST", `${base}/automations/${automation.id}/run`, { fields: { email: `${tag}@example.com` } }, 202);
  await withKey.dispose();
  // Both runs (the submission's and /run's) are logged, failed, before anything compares A's data.
  await expect(async () => {
    const runs = await apiJson<{ data: Array<{ id: string; outcome: string }> }>(request, "GET", `${base}/automations/${automation.id}/executions`);
    expect(runs.data.map((entry) => entry.outcome)).toEqual(["failed", "failed"]);
    expect(runs.data.map((entry) => entry.id)).toContain(run.executionId);
  }).toPass({ timeout: 30_000 });

  return {
    label,
    email,
    context,
    page,
    userId: userId!,
    workspaceId,
    workspaceName,
    projectId,
    projectName,
    schema,
    field,
    recordId: record.id,
    recordValue,
    endpointId: endpoint.id,
    endpointName,
    slug,
    executionId,
    keyId: key.id,
    keyName,
    key: key.key,
    templateId: template.id,
    templateName,
    secretName,
    secretValue,
    automationId: automation.id,
    automationName,
    form,
    submissionValue,
    runId: run.executionId,
  };
}

/** What of A must never appear in anything B gets (ids are left out: a URL that B typed echoes them). */
function markers(t: Tenant): string[] {
  return [
    t.workspaceName,
    t.projectName,
    t.field,
    t.recordValue,
    t.endpointName,
    t.keyName,
    t.templateName,
    t.secretName,
    t.secretValue,
    t.email,
    t.key,
    `${t.label} user`,
    t.automationName,
    t.form,
    t.submissionValue,
  ];
}

function expectNoLeak(text: string, label: string): void {
  for (const marker of markers(a)) expect(text.includes(marker), `${label} reveals "${marker}"`).toBe(false);
}

/** A's data as A sees it, to compare before and after B's attempts. */
async function snapshot(t: Tenant): Promise<string> {
  const request = t.page.request;
  const base = `/api/projects/${t.projectId}`;
  const get = async (path: string) => {
    const response = await request.get(path, { headers: { origin } });
    return `${path} ${response.status()} ${await response.text()}`;
  };
  const executions = await request.get(`${base}/endpoints/${t.endpointId}/executions`);
  const executionIds = ((await executions.json()) as { data: Array<{ id: string }> }).data.map((entry) => entry.id);
  // A run queued in A's project (Run now, Run again, a planted form post) adds an entry here.
  const runs = await request.get(`${base}/automations/${t.automationId}/executions`);
  const runIds = ((await runs.json()) as { data: Array<{ id: string; outcome: string }> }).data.map((entry) => `${entry.id}:${entry.outcome}`);
  const parts = [
    await get(base),
    await get(`${base}/schemas`),
    await get(`${base}/records/${t.schema}`),
    await get(`${base}/endpoints`),
    `executions ${executionIds.join(",")}`,
    await get(`${base}/email-templates`),
    await get(`${base}/secrets`),
    (await get(`${base}/api-keys`)).replace(/"lastUsedAt":(null|"[^"]*")/g, ""),
    await get(`${base}/automations`),
    `automation runs ${runIds.join(",")}`,
    await get(`${base}/automations/${t.automationId}/submissions`),
  ];
  // The workspace as its page shows it: the name and the member list.
  const workspace = await request.get(`/workspaces/${t.workspaceId}`);
  const html = await workspace.text();
  parts.push(`workspace ${workspace.status()} ${html.includes(t.workspaceName)} members ${[...new Set(html.match(/usr_[0-9a-z]+/g) ?? [])].sort().join(",")}`);
  // A's key still reads A's records, and the secret still holds A's value (a test run echoes it).
  const withKey = await request.get(`${base}/records/${t.schema}/${t.recordId}`, { headers: { authorization: `Bearer ${t.key}` } });
  parts.push(`key ${withKey.status()}`);
  return parts.join("\n");
}

/** Substitutes the tenants' ids into a route pattern of the app's folder tree. */
function concretePath(pattern: string, ids: Record<string, string>): string {
  return pattern.replace(/\[(\w+)\]/g, (_, name: string) => {
    const value = ids[name];
    if (value === undefined) throw new Error(`no id for [${name}] in ${pattern}`);
    return value;
  });
}

function idsOf(t: Tenant): Record<string, string> {
  return {
    workspaceId: t.workspaceId,
    projectId: t.projectId,
    endpointId: t.endpointId,
    executionId: t.executionId,
    schema: t.schema,
    name: t.schema,
    recordId: t.recordId,
    keyId: t.keyId,
    templateId: t.templateId,
    fileId: "fil_0000000000000000000000",
    slug: t.slug,
    automationId: t.automationId,
    form: t.form,
  };
}

/** Each pattern with A's ids everywhere, and with B's project (or workspace) and A's other ids. */
function variants(pattern: string): Array<{ path: string; label: string }> {
  const params = [...pattern.matchAll(/\[(\w+)\]/g)].map((match) => match[1]!);
  if (params.length === 0) return [{ path: pattern, label: `${pattern} (no ids)` }];
  const out = [{ path: concretePath(pattern, idsOf(a)), label: `${pattern} with A's ids` }];
  if (params.length > 1 && params[0] === "projectId") {
    out.push({ path: concretePath(pattern, { ...idsOf(a), projectId: b.projectId }), label: `${pattern} with B's project and A's ids` });
  }
  return out;
}

/** Route patterns under a folder of the app, from its page.tsx (or route.ts) files; route groups `(x)` are not in the URL. */
function routePatterns(dir: string, file: string): string[] {
  const out: string[] = [];
  const walk = (folder: string, segments: string[]) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith("_")) continue;
        walk(join(folder, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
      } else if (entry.name === file) out.push(`/${segments.join("/")}`);
    }
  };
  walk(
    join(ROOT, dir),
    dir
      .split("/")
      .slice(1)
      .filter((segment) => !/^\(.*\)$/.test(segment)),
  );
  return out.sort();
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, playwright, baseURL }) => {
  test.setTimeout(180_000);
  origin = baseURL!;
  a = await setUpTenant(browser, playwright, "alpha");
  b = await setUpTenant(browser, playwright, "bravo");
});

test.afterAll(async () => {
  await a?.context.close();
  await b?.context.close();
});

test("every dashboard page with another workspace's ids is the not-found page and shows none of its data", async () => {
  const patterns = routePatterns("app/(dashboard)", "page.tsx");
  expect(patterns).toContain("/projects/[projectId]/records/[schema]/[recordId]");
  expect(patterns.length).toBeGreaterThan(15);
  // A sees their own pages (the ids and markers are right); B gets a 404 for each.
  const visited: string[] = [];
  for (const pattern of patterns) {
    for (const { path, label } of variants(pattern)) {
      const response = await b.page.goto(path);
      const html = await b.page.content();
      visited.push(label);
      if (pattern.includes("[")) {
        expect(response!.status(), label).toBe(404);
        await expect(b.page.getByRole("heading", { name: "Not found" }), label).toBeVisible();
      } else expect(response!.status(), label).toBe(200);
      expectNoLeak(html, label);
      // And the RSC payload of a client-side navigation to it.
      const rsc = await b.page.request.get(path, { headers: { rsc: "1" } });
      expectNoLeak(await rsc.text(), `${label} (RSC)`);
    }
  }
  // A replay of A's run in B's own editors: B's log does not hold it, so nothing of it is loaded.
  for (const path of [
    `/projects/${b.projectId}/endpoints/${b.endpointId}?replay=${a.executionId}`,
    `/projects/${b.projectId}/endpoints/new?replay=${a.executionId}`,
    `/projects/${b.projectId}/automations/${b.automationId}?replay=${a.executionId}`,
  ]) {
    const response = await b.page.goto(path);
    expect(response!.status(), path).toBe(200);
    await expect(b.page.getByText(`No run ${a.executionId} in this project's log`), path).toBeVisible();
    expectNoLeak(await b.page.content(), path);
    visited.push(`${path} (replay)`);
  }
  // The owner does see them: the test is not passing for a wrong reason.
  for (const pattern of patterns.filter((p) => p.includes("["))) {
    const response = await a.page.request.get(concretePath(pattern, idsOf(a)));
    expect(response.status(), `A opens ${pattern}`).toBe(200);
  }
  const ownRecord = await (await a.page.request.get(`/projects/${a.projectId}/records/${a.schema}/${a.recordId}`)).text();
  expect(ownRecord).toContain(a.recordValue);
  console.log(`pages visited by B: ${visited.length}`);
});

test("every management route with another workspace's ids answers 404 to a signed-in stranger", async () => {
  const before = await snapshot(a);
  // Invocations and form posts are public by design (anyone may call A's endpoint or post A's form); below,
  // B's project with A's form slug must not reach A's form.
  const patterns = routePatterns("app/api/projects", "route.ts").filter((p) => !p.includes("/fn/") && !p.includes("/auth/") && !p.includes("/forms/"));
  expect(patterns.length).toBeGreaterThan(15);
  let calls = 0;
  for (const pattern of patterns) {
    const source = readFileSync(join(ROOT, "app", `${pattern}/route.ts`), "utf8");
    const methods = [...source.matchAll(/export\s+(?:const|async\s+function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((match) => match[1]!);
    expect(methods.length, pattern).toBeGreaterThan(0);
    for (const method of methods) {
      for (const { path, label } of variants(pattern)) {
        // With A's project, a body that carries A's ids too; with B's project, a body valid for the
        // route, so that only the lookup of A's sub-id can refuse it.
        const generic = {
          name: "pwned",
          endpointId: a.endpointId,
          recordId: a.recordId,
          projectId: a.projectId,
          value: "pwned",
          endpoint: { name: "x", method: "GET", slug: "x", steps: [], response: { body: "{}" } },
        };
        const valid: Record<string, unknown> = {
          "PATCH /api/projects/[projectId]/email-templates/[templateId]": { subject: "pwned" },
          "PATCH /api/projects/[projectId]/endpoints/[endpointId]": { name: "pwned" },
          "PATCH /api/projects/[projectId]/records/[schema]/[recordId]": { [a.field]: "pwned" },
          "POST /api/projects/[projectId]/records/[schema]": { [a.field]: "pwned" },
          "PATCH /api/projects/[projectId]/schemas/[name]": { name: a.schema, kind: "collection", fields: [{ name: "title", type: "string" }] },
          "PUT /api/projects/[projectId]/secrets/[name]": { value: "pwned" },
          "PATCH /api/projects/[projectId]/automations/[automationId]": { name: "pwned" },
          "POST /api/projects/[projectId]/automations/[automationId]/run": { email: "pwned@example.com" },
        };
        const body = method === "GET" || method === "DELETE" ? undefined : path.startsWith(`/api/projects/${b.projectId}`) ? (valid[`${method} ${pattern}`] ?? generic) : generic;
        const response = await api(b.page.request, method, path, body);
        const text = await response.text();
        calls++;
        expect(response.status(), `${method} ${label}: ${text}`).toBe(404);
        expectNoLeak(text, `${method} ${label}`);
      }
    }
  }
  // Ids in bodies: a test run in B's project logged under A's endpoint.
  const testRun = await api(b.page.request, "POST", `/api/projects/${b.projectId}/endpoints/test-run`, {
    endpoint: { steps: [], response: { body: "{}" } },
    endpointId: a.endpointId,
  });
  expect(testRun.status(), await testRun.text()).toBe(404);
  calls++;
  // A's form through B's project (a browser form post, and a script's JSON post): the slug is looked up in B's project only.
  for (const post of [{ form: { email: "planted@example.com" } }, { data: { email: "planted@example.com" } }]) {
    const response = await b.page.request.post(`/api/projects/${b.projectId}/forms/${a.form}`, { ...post, maxRedirects: 0 });
    const text = await response.text();
    expect(response.status(), text).toBe(404);
    expectNoLeak(text, `POST B's project /forms/${a.form}`);
    calls++;
  }
  // A's key is refused on B's project too (404, like an unknown project).
  const withKey = await b.page.request.get(`/api/projects/${b.projectId}/records/${b.schema}`, { headers: { authorization: `Bearer ${a.key}` } });
  expect(withKey.status()).toBe(404);
  expect(await snapshot(a)).toBe(before);
  console.log(`management calls by B: ${calls}`);
});

/** The build's server actions: id → file and exported name (next build writes this manifest). */
function actionManifest(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const byName = new Map<string, string>();
  for (const [id, entry] of Object.entries(manifest.node)) if (entry.exportedName) byName.set(entry.exportedName, id);
  return byName;
}

/** A FormData argument, encoded the way React's encodeReply sends it. */
class Form {
  constructor(readonly fields: Record<string, string>) {}
}

/**
 * Calls a server action the way the browser does: a POST with its `Next-Action` id, the arguments
 * as React's reply encoding (JSON text; a FormData argument as `$K<n>` with its fields prefixed
 * `_<n>_` in a multipart body), from B's own page.
 */
async function callAction(page: Page, actionId: string, pagePath: string, args: unknown[]): Promise<{ status: number; text: string; result: unknown }> {
  const multipart = new FormData();
  let part = 1;
  const encoded = args.map((arg) => {
    if (arg === undefined) return "$undefined";
    if (arg instanceof Form) {
      const id = part++;
      for (const [name, value] of Object.entries(arg.fields)) multipart.append(`_${id}_${name}`, value);
      return `$K${id.toString(16)}`;
    }
    return arg;
  });
  const json = JSON.stringify(encoded);
  // The root goes last, as React sends it: the server resolves `$K` from the fields read before it.
  multipart.append("0", json);
  const headers = { "next-action": actionId, origin, accept: "text/x-component" };
  const response =
    part > 1
      ? await page.request.post(pagePath, { headers, multipart, maxRedirects: 0 })
      : await page.request.post(pagePath, { headers: { ...headers, "content-type": "text/plain;charset=UTF-8" }, data: json, maxRedirects: 0 });
  const text = await response.text();
  // The flight answer: row 0 is the envelope, whose "a" points at the action's result row.
  let result: unknown = undefined;
  const rows = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^([0-9a-f]+):(.*)$/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  try {
    const envelope = JSON.parse(rows.get("0") ?? "null") as { a?: string } | null;
    const ref = envelope?.a?.startsWith("$@") ? envelope.a.slice(2) : undefined;
    result = ref !== undefined && rows.has(ref) ? JSON.parse(rows.get(ref)!) : undefined;
  } catch {
    result = undefined;
  }
  return { status: response.status(), text, result };
}

function refused(result: unknown): boolean {
  if (result === undefined || result === null) return false;
  const value = result as { ok?: boolean; error?: string; message?: string; code?: string };
  if (value.ok === true) return false;
  if (value.code === "not_found" || value.code === "forbidden") return true;
  const text = `${value.error ?? ""} ${value.message ?? ""}`;
  return /not found|does not exist|has the id|not a member|forbidden|not allow|invalid|expired/i.test(text);
}

test("every server action with another workspace's ids is refused and changes nothing", async () => {
  test.setTimeout(120_000);
  const ids = actionManifest();
  const A = a;
  const B = b;
  const bProject = `/projects/${B.projectId}`;
  const endpointDraft = {
    name: "planted",
    method: "GET",
    slug: "planted",
    auth: "public",
    steps: [{ type: "query", name: "notes", schema: A.schema, limit: 10 }],
    response: { body: "{{steps.notes}}" },
  };
  const schemaDraft = { name: "planted", kind: "collection", fields: [{ name: "title", type: "string" }] };
  const exported = { version: 1, endpoints: [endpointDraft] };
  const automationDraft = {
    name: "planted",
    enabled: true,
    trigger: { type: "manual" },
    steps: [{ type: "query", name: "notes", schema: A.schema, limit: 10 }],
    retry: { attempts: 0, backoffSeconds: 30 },
  };
  const automationsExported = { format: "flowpoint.automations", version: 1, automations: [automationDraft] };
  const bAutomation = `${bProject}/automations/${B.automationId}`;
  /** Each cross-tenant action: the page of B's it is posted from, and every argument list to try. */
  const cases: Record<string, { page: string; calls: unknown[][] }> = {
    acceptInvitationAction: { page: `/invitations/inv_forged`, calls: [["inv_forged"], [A.workspaceId]] },
    renameWorkspaceAction: { page: `/workspaces/${B.workspaceId}`, calls: [[A.workspaceId, {}, new Form({ name: "pwned" })]] },
    inviteMemberAction: { page: `/workspaces/${B.workspaceId}`, calls: [[A.workspaceId, {}, new Form({ email: B.email, role: "admin" })]] },
    removeMemberAction: {
      page: `/workspaces/${B.workspaceId}`,
      calls: [
        [A.workspaceId, A.userId],
        [B.workspaceId, A.userId],
      ],
    },
    createProjectAction: { page: `/workspaces/${B.workspaceId}`, calls: [[A.workspaceId, {}, new Form({ name: "planted", "database.kind": "local" })]] },
    testNewProjectDatabaseAction: { page: `/workspaces/${B.workspaceId}`, calls: [[A.workspaceId, { kind: "local" }]] },
    updateGeneralSettingsAction: { page: `${bProject}/settings`, calls: [[A.projectId, {}, new Form({ name: "pwned", logRetentionDays: "1" })]] },
    updateDatabaseAction: { page: `${bProject}/settings`, calls: [[A.projectId, {}, new Form({ "database.kind": "local" })]] },
    testDatabaseAction: { page: `${bProject}/settings`, calls: [[A.projectId, { kind: "local" }]] },
    testCurrentDatabaseAction: { page: `${bProject}/settings`, calls: [[A.projectId]] },
    updateMailSettingsAction: {
      page: `${bProject}/settings`,
      calls: [[A.projectId, {}, new Form({ host: "smtp.evil.example", port: "25", user: "u", password: "p", from: "x@evil.example" })]],
    },
    removeMailSettingsAction: { page: `${bProject}/settings`, calls: [[A.projectId]] },
    createApiKeyAction: { page: `${bProject}/api-keys`, calls: [[A.projectId, {}, new Form({ name: "stolen", permissions: "records.read" })]] },
    revokeApiKeyAction: {
      page: `${bProject}/api-keys`,
      calls: [
        [A.projectId, A.keyId],
        [B.projectId, A.keyId],
      ],
    },
    createSecretAction: { page: `${bProject}/settings`, calls: [[A.projectId, {}, new Form({ name: "PLANTED", value: "x" })]] },
    rotateSecretAction: {
      page: `${bProject}/settings`,
      calls: [
        [A.projectId, A.secretName, {}, new Form({ value: "pwned" })],
        [B.projectId, A.secretName, {}, new Form({ value: "pwned" })],
      ],
    },
    deleteSecretAction: {
      page: `${bProject}/settings`,
      calls: [
        [A.projectId, A.secretName],
        [B.projectId, A.secretName],
      ],
    },
    createRecordAction: {
      page: `${bProject}/records/${B.schema}/new`,
      calls: [
        [A.projectId, A.schema, { [A.field]: "planted" }],
        [B.projectId, A.schema, { [A.field]: "planted" }],
      ],
    },
    updateRecordAction: {
      page: `${bProject}/records/${B.schema}/new`,
      calls: [
        [A.projectId, A.schema, A.recordId, { [A.field]: "pwned" }],
        [B.projectId, B.schema, A.recordId, { [B.field]: "pwned" }],
        [B.projectId, A.schema, A.recordId, { [A.field]: "pwned" }],
      ],
    },
    deleteRecordAction: {
      page: `${bProject}/records/${B.schema}/new`,
      calls: [
        [A.projectId, A.schema, A.recordId],
        [B.projectId, B.schema, A.recordId],
      ],
    },
    searchRecordChoicesAction: {
      page: `${bProject}/records/${B.schema}/new`,
      calls: [
        [A.projectId, A.schema, ""],
        [A.projectId, A.schema, A.recordId],
        [B.projectId, A.schema, A.recordId],
      ],
    },
    findTakenUniqueValuesAction: {
      page: `${bProject}/records/${B.schema}/new`,
      calls: [
        [A.projectId, A.schema, null, {}],
        [A.projectId, A.schema, A.recordId, {}],
        [B.projectId, A.schema, A.recordId, {}],
      ],
    },
    createSchemaAction: { page: `${bProject}/schemas/new`, calls: [[A.projectId, schemaDraft]] },
    updateSchemaAction: {
      page: `${bProject}/schemas/new`,
      calls: [
        [A.projectId, A.schema, { ...schemaDraft, name: A.schema }, { dryRun: true, expectedVersion: 1 }],
        [A.projectId, A.schema, { ...schemaDraft, name: A.schema }, { dryRun: false, expectedVersion: 1 }],
      ],
    },
    deleteSchemaAction: { page: `${bProject}/schemas/new`, calls: [[A.projectId, A.schema, true]] },
    createEndpointAction: { page: `${bProject}/endpoints/new`, calls: [[A.projectId, endpointDraft]] },
    updateEndpointAction: {
      page: `${bProject}/endpoints/new`,
      calls: [
        [A.projectId, A.endpointId, { name: "pwned" }],
        [B.projectId, A.endpointId, { name: "pwned" }],
      ],
    },
    setEndpointEnabledAction: {
      page: `${bProject}/endpoints`,
      calls: [
        [A.projectId, A.endpointId, false],
        [B.projectId, A.endpointId, false],
      ],
    },
    deleteEndpointAction: {
      page: `${bProject}/endpoints`,
      calls: [
        [A.projectId, A.endpointId],
        [B.projectId, A.endpointId],
      ],
    },
    testRunEndpointAction: {
      page: `${bProject}/endpoints/new`,
      calls: [
        [A.projectId, { endpoint: endpointDraft, body: {}, query: {}, user: null, endpointId: null }],
        [A.projectId, { endpoint: endpointDraft, body: {}, query: {}, user: null, endpointId: A.endpointId }],
        [B.projectId, { endpoint: { ...endpointDraft, steps: [] }, body: {}, query: {}, user: null, endpointId: A.endpointId }],
      ],
    },
    exportEndpointsAction: { page: `${bProject}/endpoints`, calls: [[A.projectId]] },
    importEndpointsAction: { page: `${bProject}/endpoints`, calls: [[A.projectId, exported]] },
    createAutomationAction: { page: `${bProject}/automations/new`, calls: [[A.projectId, automationDraft]] },
    updateAutomationAction: {
      page: bAutomation,
      calls: [
        [A.projectId, A.automationId, { name: "pwned" }],
        [B.projectId, A.automationId, { name: "pwned" }],
        [A.projectId, A.automationId, { ...automationDraft, name: "pwned" }],
      ],
    },
    setAutomationEnabledAction: {
      page: `${bProject}/automations`,
      calls: [
        [A.projectId, A.automationId, false],
        [B.projectId, A.automationId, false],
      ],
    },
    deleteAutomationAction: {
      page: bAutomation,
      calls: [
        [A.projectId, A.automationId],
        [B.projectId, A.automationId],
      ],
    },
    runAutomationNowAction: {
      page: bAutomation,
      calls: [
        [A.projectId, A.automationId, { fields: { email: "planted@example.com" } }],
        [B.projectId, A.automationId, { fields: { email: "planted@example.com" } }],
      ],
    },
    runAutomationAgainAction: {
      page: `${bAutomation}/runs`,
      calls: [
        [A.projectId, A.automationId, A.runId],
        [B.projectId, A.automationId, A.runId],
        // B's own automation with A's run: the execution is looked up in B's database only.
        [B.projectId, B.automationId, A.runId],
      ],
    },
    exportAutomationsAction: { page: `${bProject}/automations`, calls: [[A.projectId]] },
    importAutomationsAction: { page: `${bProject}/automations`, calls: [[A.projectId, automationsExported]] },
  };

  // The sweep is complete: every action of the inventory, and every action of the build, is here.
  expect(Object.keys(cases).sort()).toEqual(crossTenantActionNames());
  const inventoried = new Set(Object.values(SERVER_ACTION_COVERAGE).flatMap((actions) => Object.keys(actions)));
  for (const name of ids.keys()) expect(inventoried.has(name), `${name} is in e2e/tenant-isolation-inventory.ts`).toBe(true);

  // The calls reach the actions as the dashboard makes them: B's own calls through the same encoding succeed.
  const ownRename = await callAction(B.page, ids.get("renameWorkspaceAction")!, `/workspaces/${B.workspaceId}`, [B.workspaceId, {}, new Form({ name: B.workspaceName })]);
  expect(ownRename.result, ownRename.text).toMatchObject({ ok: true, values: { name: B.workspaceName } });
  const ownExport = await callAction(B.page, ids.get("exportEndpointsAction")!, `${bProject}/endpoints`, [B.projectId]);
  expect(ownExport.result, ownExport.text).toMatchObject({ ok: true });
  expect(ownExport.text).toContain(B.endpointName);
  const ownAutomations = await callAction(B.page, ids.get("exportAutomationsAction")!, `${bProject}/automations`, [B.projectId]);
  expect(ownAutomations.result, ownAutomations.text).toMatchObject({ ok: true });
  expect(ownAutomations.text).toContain(B.automationName);

  const before = await snapshot(A);
  const ownBefore = await snapshot(B);
  const outcomes: string[] = [];
  for (const [name, { page: pagePath, calls }] of Object.entries(cases)) {
    const actionId = ids.get(name);
    expect(actionId, `${name} is in the build's action manifest`).toBeTruthy();
    for (const args of calls) {
      const label = `${name}(${args.map((arg) => (arg instanceof Form ? "FormData" : JSON.stringify(arg))).join(", ")})`;
      const { status, text, result } = await callAction(B.page, actionId!, pagePath, args);
      outcomes.push(`${label} → ${status} ${JSON.stringify(result)}`);
      expect.soft(status, `${label}: ${text}`).toBe(200);
      expect.soft(refused(result), `${label} is refused: ${text}`).toBe(true);
      expectNoLeak(text, label);
    }
  }
  console.log(outcomes.join("\n"));

  // Nothing of A's changed, nothing was planted, and B's own project is as it was.
  expect(await snapshot(A)).toBe(before);
  expect(await snapshot(B)).toBe(ownBefore);
  const members = await (await A.page.request.get(`/workspaces/${A.workspaceId}`)).text();
  expect(members).not.toContain(B.email);

  // The same through B's real forms: the browser's own action request, with B's project id swapped
  // for A's on the way out (what an edited hidden input or bound argument would send).
  await B.page.route(/\/projects\//, async (route) => {
    const request = route.request();
    const body = request.postDataBuffer();
    if (request.method() !== "POST" || !request.headers()["next-action"] || body === null) return route.continue();
    const swapped = body.toString("latin1").replaceAll(B.projectId, A.projectId);
    outcomes.push(`UI ${request.url()} swapped: ${swapped !== body.toString("latin1")}`);
    return route.continue({ postData: Buffer.from(swapped, "latin1") });
  });
  await B.page.goto(`${bProject}/api-keys`);
  await B.page.getByLabel("Key name").fill("stolen through the form");
  await B.page.getByRole("checkbox", { name: /records\.read/ }).check();
  await B.page.getByRole("button", { name: "Create API key" }).click();
  await expect(B.page.getByText("Project not found")).toBeVisible();
  await expect(B.page.getByRole("region", { name: "New API key" })).toHaveCount(0);
  await B.page.goto(`${bProject}/settings`);
  await B.page.getByLabel("Project name").fill("renamed through the form");
  await B.page.getByRole("button", { name: "Save", exact: true }).first().click();
  await expect(B.page.getByText("Project not found")).toBeVisible();
  await B.page.unroute(/\/projects\//);
  const throughForms = outcomes.filter((line) => line.startsWith("UI "));
  expect(throughForms.length, throughForms.join("\n")).toBeGreaterThanOrEqual(2);
  expect(
    throughForms.every((line) => line.endsWith("swapped: true")),
    throughForms.join("\n"),
  ).toBe(true);
  expect(await snapshot(A)).toBe(before);
  expect(await snapshot(B)).toBe(ownBefore);

  // The self-only action that ends sessions ends B's, not A's.
  const signOut = ids.get("signOutEverywhereAction")!;
  const ended = await callAction(B.page, signOut, `/workspaces/${B.workspaceId}`, []);
  expect([200, 303]).toContain(ended.status);
  expect((await B.page.request.get(`/api/projects/${B.projectId}`)).status()).toBe(401);
  expect((await A.page.request.get(`/api/projects/${A.projectId}`)).status()).toBe(200);
});
