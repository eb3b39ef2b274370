import { describe, expect } from "vitest";
import { routeByOrigin } from "@/lib/http/invocation-origin";
import { INVOCATION_SANDBOX } from "@/lib/http/security-headers";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { browserFormPost, insertFormAutomation, insertManualAutomation, readStoredSubmissions, jsonBody } from "@/test/support/form-fixtures";
import { createProjectFixture, createTestUser } from "@/test/fixtures";
import type { ApiCredentials, ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

const SHOP = "https://shop.example";
const THANKS = "https://shop.example/thanks";
const EVIL = "https://evil.example";
const SUBMISSION_ID = /^sub_[0-9a-z]{26}$/;

const it = routeTest
  .extend("other", { scope: "file" }, () => createProjectFixture("Other"))
  /** The form automations of the project and of `other`, made before the file's first test. */
  .extend("forms", { scope: "file", auto: true }, async ({ project, other }) => {
    const steps = [{ type: "transform", name: "echo", expression: "trigger.fields" }];
    const guardedId = await insertFormAutomation({ projectId: project.projectId, trigger: { form: "guarded", honeypot: "website", allowedOrigins: [SHOP] }, steps });
    await insertFormAutomation({ projectId: project.projectId, trigger: { form: "guarded-redirect", honeypot: "website", redirectUrl: THANKS } });
    const signupId = await insertFormAutomation({ projectId: project.projectId, trigger: { form: "signup" } });
    const surveyId = await insertFormAutomation({ projectId: project.projectId, trigger: { form: "survey" } });
    await insertFormAutomation({ projectId: project.projectId, trigger: { form: "flood" } });
    const otherFormId = await insertFormAutomation({ projectId: other.projectId, trigger: { form: "signup" } });
    return { guardedId, signupId, surveyId, otherFormId };
  });

/** The URL of one of the project's forms. */
function formUrl(api: ProjectApi, form: string): string {
  return api.url(`/forms/${form}`);
}

function json(value: unknown, headers: Record<string, string> = {}): RequestInit {
  const body = jsonBody(value);
  return { ...body, headers: { ...body.headers, ...headers } };
}

function expectLocked(headers: { get(name: string): string | null }, label: string): void {
  expect(headers.get("content-security-policy"), label).toBe(INVOCATION_SANDBOX);
  expect(headers.get("x-content-type-options"), label).toBe("nosniff");
  expect(headers.get("cache-control"), label).toBe("no-store");
  expect(headers.get("set-cookie"), label).toBeNull();
  const type = headers.get("content-type");
  if (type !== null) expect(type, label).toBe("application/json; charset=utf-8");
}

async function executionsOf(projectId: string, automationId: string): Promise<Array<Record<string, unknown>>> {
  const store = await getProjectRecordStore({ projectId });
  return store.find("_executions", { where: [{ field: "automationId", op: "eq", value: automationId }] });
}

describe("security headers", () => {
  it("are on every answer: accepted, redirected, refused, not found, limited and preflights", async ({ ownerApi }) => {
    const answers: Array<[string, number, () => Promise<Response | { status: number; headers: Record<string, unknown> }>]> = [
      ["202", 202, () => ownerApi.postForm("signup", json({ a: 1 }))],
      ["303", 303, () => browserFormPost(formUrl(ownerApi, "guarded-redirect"), "name=x")],
      ["400 json", 400, () => ownerApi.postForm("signup", { headers: { "content-type": "application/json" }, body: "{" })],
      ["400 fields", 400, () => ownerApi.postForm("signup", json({ ["x".repeat(101)]: 1 }))],
      ["404 project", 404, () => fetch(ownerApi.with({ projectId: "prj_00000000000000000000000000" }).url("/forms/signup"), { method: "POST", ...json({}) })],
      ["404 form", 404, () => ownerApi.postForm("missing", json({}))],
      ["413", 413, () => ownerApi.postForm("signup", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=".padEnd(100 * 1024 + 1, "x") })],
      ["415", 415, () => ownerApi.postForm("signup", { headers: { "content-type": "text/plain" }, body: "a=1" })],
      ["204 preflight", 204, () => fetch(formUrl(ownerApi, "guarded"), { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } })],
      ["404 preflight", 404, () => fetch(formUrl(ownerApi, "missing"), { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } })],
    ];
    for (const [label, status, send] of answers) {
      const response = await send();
      expect(response.status, label).toBe(status);
      const headers = response instanceof Response ? response.headers : { get: (name: string) => (response.headers[name] as string | undefined) ?? null };
      expectLocked(headers, label);
    }
    let limited: Response | null = null;
    for (let i = 0; i < 150 && !limited; i++) {
      const response = await ownerApi.postForm("flood", json({ i }));
      if (response.status === 429) limited = response;
    }
    expect(limited).not.toBeNull();
    expectLocked(limited!.headers, "429");
    expect(limited!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("never answers HTML, whatever the field names and values hold", async ({ ownerApi }) => {
    const script = "<script>alert(1)</script>";
    const accepted = await ownerApi.postForm("signup", { body: new URLSearchParams({ [script]: script, name: `"><img src=x onerror=alert(1)>` }) });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await accepted.text()).not.toContain("<");
    const refused = await ownerApi.postForm("signup", { body: new URLSearchParams({ [`${script}${"x".repeat(100)}`]: script }) });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("honeypot", () => {
  it("answers a filled trap exactly as if accepted and stores and runs nothing", async ({ server, project, ownerApi, forms }) => {
    const before = (await readStoredSubmissions(project.projectId, forms.guardedId)).length;
    for (const fields of [
      { name: "Bot", website: "http://spam.example" },
      { name: "Bot", website: ["", "spam"] },
    ]) {
      const trapped = await ownerApi.postForm("guarded", {
        body: new URLSearchParams(Object.entries(fields).flatMap(([name, value]) => (Array.isArray(value) ? value.map((item) => [name, item]) : [[name, value]]))),
      });
      expect(trapped.status).toBe(202);
      expect(await trapped.json()).toEqual({ id: expect.stringMatching(SUBMISSION_ID) });
    }
    const trappedJson = await ownerApi.postForm("guarded", json({ name: "Bot", website: 1 }, { origin: SHOP }));
    expect(trappedJson.status).toBe(202);
    expect(trappedJson.headers.get("access-control-allow-origin")).toBe(SHOP);
    const trappedBody = (await trappedJson.json()) as { id: string };
    expect(trappedBody.id).toMatch(SUBMISSION_ID);

    const human = await ownerApi.postForm("guarded", { body: new URLSearchParams({ name: "Human", website: "  " }) });
    expect(human.status).toBe(202);
    const { id } = (await human.json()) as { id: string };

    const stored = await readStoredSubmissions(project.projectId, forms.guardedId);
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)).toMatchObject({ id, fields: { name: "Human" } });
    expect(stored.some((record) => record.id === trappedBody.id)).toBe(false);

    // The human's run happens; the trapped ones never do.
    let runs: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100 && runs.length === 0; i++) {
      runs = await executionsOf(project.projectId, forms.guardedId);
      if (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await server.drain();
    await new Promise((resolve) => setTimeout(resolve, 300));
    runs = await executionsOf(project.projectId, forms.guardedId);
    expect(runs).toHaveLength(1);
    expect(JSON.stringify(runs[0])).not.toContain("Bot");
  });

  it("redirects a trapped browser post like an accepted one", async ({ ownerApi }) => {
    const trapped = await browserFormPost(formUrl(ownerApi, "guarded-redirect"), "name=Bot&website=spam");
    const human = await browserFormPost(formUrl(ownerApi, "guarded-redirect"), "name=Human&website=");
    expect([trapped.status, trapped.headers.location, trapped.body]).toEqual([303, THANKS, ""]);
    expect([human.status, human.headers.location, human.body]).toEqual([303, THANKS, ""]);
  });
});

describe("redirects", () => {
  it("go only to the owner's redirectUrl, never to one the submission or the query names", async ({ ownerApi }) => {
    const hostile = new URLSearchParams({ redirect: EVIL, redirectUrl: EVIL, redirect_url: EVIL, next: EVIL, returnTo: EVIL, location: EVIL, _next: EVIL }).toString();
    const answer = await browserFormPost(`${formUrl(ownerApi, "guarded-redirect")}?redirectUrl=${encodeURIComponent(EVIL)}&next=${encodeURIComponent(EVIL)}`, hostile, {
      referer: `${EVIL}/form`,
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(THANKS);
    // A form without a redirectUrl never redirects.
    const none = await browserFormPost(`${formUrl(ownerApi, "signup")}?redirectUrl=${encodeURIComponent(EVIL)}`, hostile);
    expect(none.status).toBe(202);
    expect(none.headers.location).toBeUndefined();
    expect(JSON.parse(none.body)).toEqual({ id: expect.stringMatching(SUBMISSION_ID) });
  });
});

describe("cookies and sessions", () => {
  it("are ignored: a signed-in owner's cookie changes nothing, sets nothing and meets no CSRF check", async ({ project, ownerApi, forms }) => {
    const cookie = project.owner.cookie;
    const withCookie = await browserFormPost(formUrl(ownerApi, "signup"), "name=cookie", { cookie, origin: EVIL, "sec-fetch-site": "cross-site" });
    expect(withCookie.status).toBe(202);
    expect(withCookie.headers["set-cookie"]).toBeUndefined();
    const garbage = await ownerApi.postForm("signup", {
      body: new URLSearchParams({ name: "garbage" }),
      headers: { cookie: "next-auth.session-token=garbage; __Secure-next-auth.session-token=x" },
    });
    expect(garbage.status).toBe(202);
    const { id } = JSON.parse(withCookie.body) as { id: string };
    const stored = (await readStoredSubmissions(project.projectId, forms.signupId)).find((record) => record.id === id);
    expect(stored).toMatchObject({ fields: { name: "cookie" }, origin: EVIL });
    expect(JSON.stringify(stored)).not.toContain("session-token");
  });

  it("is served on the invocation origin (without cookies there), unlike the management route", ({ project, forms }) => {
    const fn = "fn.flowpoint.example";
    expect(routeByOrigin(fn, `/api/projects/${project.projectId}/forms/signup`, fn)).toBe("invocation_origin");
    expect(routeByOrigin(fn, `/api/projects/${project.projectId}/automations/${forms.signupId}/submissions`, fn)).toBe("not_found");
  });
});

describe("CORS", () => {
  it("grants no origin the trigger does not list, on posts and preflights", async ({ ownerApi }) => {
    const refused = await ownerApi.postForm("guarded", json({ name: "x" }, { origin: EVIL }));
    expect(refused.status).toBe(202);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(formUrl(ownerApi, "guarded"), {
      method: "OPTIONS",
      headers: { origin: EVIL, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-methods")).toBeNull();
    // A form without allowedOrigins grants nobody, not even a listed origin of another form.
    const none = await ownerApi.postForm("signup", json({ name: "x" }, { origin: SHOP }));
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
    const nonePreflight = await fetch(formUrl(ownerApi, "signup"), { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } });
    expect(nonePreflight.headers.get("access-control-allow-origin")).toBeNull();
    // Only POST is granted, even to a listed origin.
    const put = await fetch(formUrl(ownerApi, "guarded"), { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "PUT" } });
    expect(put.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CSV export", () => {
  it("neutralises formulas in values and field names", async ({ project, ownerApi, forms }) => {
    const readerApi = ownerApi.with({ credentials: { key: await project.keyFor(["automations.read"]) } });
    const response = await ownerApi.postForm(
      "survey",
      json({
        "=cmd|' /C calc'!A0": "header attack",
        name: '=HYPERLINK("https://evil.example","click")',
        plus: "+SUM(1,2)",
        at: "@SUM(1)",
        dash: "-2+3",
        tab: "\t=1",
        number: -2,
        quote: 'say "hi", then leave',
      }),
    );
    expect(response.status).toBe(202);
    const csv = await (await readerApi.fetch(`/automations/${forms.surveyId}/submissions?format=csv`)).text();
    const [header, row] = csv.split("\r\n");
    expect(header).toBe(`id,submittedAt,ip,'=cmd|' /C calc'!A0,name,plus,at,dash,tab,number,quote`);
    expect(row!.split(",").slice(3).join(",")).toBe(
      `header attack,"'=HYPERLINK(""https://evil.example"",""click"")","'+SUM(1,2)",'@SUM(1),'-2+3,'\t=1,-2,"say ""hi"", then leave"`,
    );
  });
});

describe("the submissions route", () => {
  it("answers 401 without credentials, 403 without automations.read, 404 for other projects' and non-form automations", async ({ project, other, ownerApi, forms }) => {
    const readKey = await project.keyFor(["automations.read"]);
    const noRead = await project.keyFor(["endpoints.read", "automations.run"]);
    const otherKey = await other.keyFor(["automations.read"]);
    const manualId = await insertManualAutomation(project.projectId);
    const stranger = await createTestUser("stranger");
    const as = (credentials: ApiCredentials, projectId = project.projectId) => ownerApi.with({ projectId, credentials });
    const cases: Array<[string, ProjectApi, string, number]> = [
      ["no credentials", as("anonymous"), forms.signupId, 401],
      ["garbage key", as({ key: "fpk_garbage" }), forms.signupId, 401],
      ["without automations.read", as({ key: noRead }), forms.signupId, 403],
      ["another project's automation", as({ key: readKey }), forms.otherFormId, 404],
      ["another project's key", as({ key: otherKey }), forms.signupId, 404],
      ["another project's key on its own automation through this project", as({ key: otherKey }), forms.otherFormId, 404],
      ["a manual automation", as({ key: readKey }), manualId, 404],
      ["an unknown automation", as({ key: readKey }), "aut_00000000000000000000000000", 404],
      ["a stranger's session", as({ cookie: stranger.cookie }), forms.signupId, 404],
      ["the owner's session", ownerApi, forms.signupId, 200],
      ["the key", as({ key: readKey }), forms.signupId, 200],
      ["the other project's own key", as({ key: otherKey }, other.projectId), forms.otherFormId, 200],
    ];
    for (const [label, api, automationId, status] of cases) {
      const response = await api.fetch(`/automations/${automationId}/submissions`);
      expect(response.status, label).toBe(status);
      if (status !== 200) expect(((await response.json()) as { error: string }).error, label).toBeTypeOf("string");
    }
    const csv = await as({ key: readKey }).fetch(`/automations/${forms.otherFormId}/submissions?format=csv`);
    expect(csv.status).toBe(404);
  });
});
