import { describe, expect } from "vitest";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { browserFormPost, insertFormAutomation, readStoredSubmissions } from "@/test/support/form-fixtures";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

const SHOP = "https://shop.example";
const THANKS = "https://shop.example/thanks";
const SUBMISSION_ID = /^sub_[0-9a-z]{26}$/;

const it = routeTest
  // The project's form automations, made before the file's first test. The runs echo what the flow
  // reads, so the log shows the run saw the submission.
  .extend("forms", { scope: "file", auto: true }, async ({ project }) => {
    const steps = [{ type: "transform", name: "echo", expression: "trigger" }];
    return {
      /** Redirects browser posts to the shop's thank-you page; the shop's scripts may read answers. */
      contactId: await insertFormAutomation({ projectId: project.projectId, trigger: { form: "contact", allowedOrigins: [SHOP], redirectUrl: THANKS }, steps }),
      /** No redirect: every post is answered 202 {id}. */
      signupId: await insertFormAutomation({ projectId: project.projectId, trigger: { form: "signup" }, steps }),
    };
  })
  /** The client with a key that may read submissions. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => ownerApi.with({ credentials: { key: await project.keyFor(["automations.read"]) } }))
  /** A `survey` form with five submissions (their ids, oldest first), for the submissions route. */
  .extend("survey", { scope: "file" }, async ({ project, api }) => {
    const surveyId = await insertFormAutomation({ projectId: project.projectId, trigger: { form: "survey" } });
    const ids: string[] = [];
    for (const [name, comment] of [
      ["Ada", "Loves engines"],
      ["Grace", "Found a moth"],
      ["Linus", "=1+1"],
      ["Barbara", "Wrote CLU"],
    ]) {
      const response = await api.postForm("survey", { body: new URLSearchParams({ name: name!, comment: comment! }) });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const extra = await api.postForm("survey", { headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Edsger", rating: 5 }) });
    ids.push(((await extra.json()) as { id: string }).id);
    return { surveyId, ids };
  });

async function storedById(projectId: string, automationId: string, id: string): Promise<Record<string, unknown>> {
  const stored = (await readStoredSubmissions(projectId, automationId)).find((record) => record.id === id);
  expect(stored, id).toBeDefined();
  return stored!;
}

function submissions(api: ProjectApi, automationId: string, query = ""): Promise<Response> {
  return api.manage(`/automations/${automationId}/submissions${query}`);
}

describe("each content type is stored with its fields", () => {
  it("JSON: 202 {id}, stored with the form, automation, time, client and origin", async ({ project, api, forms }) => {
    const response = await api.postForm("signup", {
      headers: { "content-type": "application/json", "user-agent": "forms-test/1.0", origin: SHOP },
      body: JSON.stringify({ email: "ada@example.test", age: 36, topics: ["math", "engines"], consent: true }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const { id } = (await response.json()) as { id: string };
    expect(id).toMatch(SUBMISSION_ID);
    const stored = await storedById(project.projectId, forms.signupId, id);
    expect(stored).toMatchObject({
      id,
      form: "signup",
      automationId: forms.signupId,
      fields: { email: "ada@example.test", age: 36, topics: ["math", "engines"], consent: true },
      ip: "127.0.0.1",
      userAgent: "forms-test/1.0",
      origin: SHOP,
      queued: true,
    });
    expect(new Date(stored.submittedAt as string).toISOString()).toBe(stored.submittedAt);
  });

  it("urlencoded: repeated names become arrays, values stay text", async ({ project, api, forms }) => {
    const body = new URLSearchParams([
      ["name", "Grace"],
      ["colour", "red"],
      ["colour", "blue"],
      ["age", "85"],
      ["empty", ""],
    ]);
    const response = await api.postForm("signup", { body });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect((await storedById(project.projectId, forms.signupId, id)).fields).toEqual({ name: "Grace", colour: ["red", "blue"], age: "85", empty: "" });
  });

  it("multipart (FormData): fields, repeated names and an empty file input (no file chosen, skipped)", async ({ project, api, forms }) => {
    const body = new FormData();
    body.append("name", "Katherine");
    body.append("tag", "orbit");
    body.append("tag", "launch");
    body.append("message", "line one\r\nline two — ünïcode ✓");
    body.append("attachment", new Blob([]), "");
    const response = await api.postForm("signup", { body });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect((await storedById(project.projectId, forms.signupId, id)).fields).toEqual({ name: "Katherine", tag: ["orbit", "launch"], message: "line one\r\nline two — ünïcode ✓" });
  });

  it("an empty body is an empty submission", async ({ project, api, forms }) => {
    const response = await api.postForm("signup", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect((await storedById(project.projectId, forms.signupId, id)).fields).toEqual({});
  });
});

describe("answers", () => {
  it("a browser form post to a form with a redirectUrl is answered 303 to it, after storing", async ({ project, api, forms }) => {
    const url = api.url("/forms/contact");
    const urlencoded = await browserFormPost(url, new URLSearchParams({ name: "Ada", message: "hello" }).toString(), { origin: "https://blog.example" });
    expect(urlencoded.status).toBe(303);
    expect(urlencoded.headers.location).toBe(THANKS);
    expect(urlencoded.body).toBe("");
    const boundary = "----formboundary7MA4YWxk";
    const multipartBody = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda two\r\n--${boundary}--\r\n`;
    const multipart = await browserFormPost(url, multipartBody, { "content-type": `multipart/form-data; boundary=${boundary}` });
    expect(multipart.status).toBe(303);
    expect(multipart.headers.location).toBe(THANKS);
    // Without Sec-Fetch-Mode (older browsers, curl) a form-encoded post counts as a browser's too.
    const legacy = await browserFormPost(url, "name=Ada+three", { "sec-fetch-mode": "", "sec-fetch-dest": "" });
    expect(legacy.status).toBe(303);
    const stored = await readStoredSubmissions(project.projectId, forms.contactId);
    expect(stored.map((record) => record.fields)).toEqual(expect.arrayContaining([{ name: "Ada", message: "hello" }, { name: "Ada two" }, { name: "Ada three" }]));
  });

  it("JSON and scripted posts (Sec-Fetch-Mode other than navigate) get 202 {id} even with a redirectUrl", async ({ api }) => {
    const json = await api.postForm("contact", { headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Script" }) });
    expect(json.status).toBe(202);
    expect((await json.json()) as unknown).toEqual({ id: expect.stringMatching(SUBMISSION_ID) });
    const fetched = new FormData();
    fetched.append("name", "FormData by fetch");
    const scripted = await api.postForm("contact", { body: fetched, headers: { "sec-fetch-mode": "cors", origin: SHOP } });
    expect(scripted.status).toBe(202);
    expect(scripted.headers.get("location")).toBeNull();
  });
});

describe("CORS", () => {
  it("answers the preflight of an allowed origin from the trigger and grants its posts", async ({ api }) => {
    const preflight = await fetch(api.url("/forms/contact"), {
      method: "OPTIONS",
      headers: { origin: SHOP, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");

    const granted = await api.postForm("contact", { headers: { origin: SHOP, "content-type": "application/json", "sec-fetch-mode": "cors" }, body: "{}" });
    expect(granted.status).toBe(202);
    expect(granted.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(granted.headers.get("vary")).toContain("origin");
  });

  it("takes a plain HTML form post from any origin: it needs no CORS grant", async ({ project, api, forms }) => {
    const response = await api.postForm("signup", { headers: { origin: "https://blog.example" }, body: new URLSearchParams({ email: "x@example.test" }) });
    expect(response.status).toBe(202);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const { id } = (await response.json()) as { id: string };
    expect((await storedById(project.projectId, forms.signupId, id)).origin).toBe("https://blog.example");
  });
});

describe("the run", () => {
  it("is queued after the submission is stored, and runs with trigger.{form, submissionId, fields, submittedAt, ip}", async ({ project, api, forms }) => {
    const response = await api.postForm("signup", { headers: { "content-type": "application/json" }, body: JSON.stringify({ marker: "run-check-7f3a" }) });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    expect((await storedById(project.projectId, forms.signupId, id)).queued).toBe(true);

    const store = await getProjectRecordStore({ projectId: project.projectId });
    let entry: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !entry; i++) {
      const entries = await store.find("_executions", { where: [{ field: "automationId", op: "eq", value: forms.signupId }] });
      entry = entries.find((candidate) => JSON.stringify(candidate).includes(id));
      if (!entry) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(entry, "the run's execution log").toBeDefined();
    expect(entry!.outcome).toBe("completed");
    const logged = JSON.stringify(entry);
    for (const part of ["run-check-7f3a", id, "signup", "127.0.0.1"]) expect(logged).toContain(part);
  });
});

describe("the submissions route", () => {
  it("lists newest first with paging", async ({ api, survey }) => {
    const first = await submissions(api, survey.surveyId, "?limit=2");
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as { data: Array<{ id: string; fields: Record<string, unknown>; form: string; queued: boolean }>; nextBefore: string | null };
    expect(page1.data.map((item) => item.id)).toEqual([survey.ids[4], survey.ids[3]]);
    expect(page1.data[0]).toMatchObject({ form: "survey", automationId: survey.surveyId, fields: { name: "Edsger", rating: 5 }, ip: "127.0.0.1", queued: true });
    expect(page1.data[0]).not.toHaveProperty("fieldsText");
    expect(page1.nextBefore).toBe(survey.ids[3]);
    const second = (await (await submissions(api, survey.surveyId, `?limit=2&before=${page1.nextBefore}`)).json()) as { data: Array<{ id: string }>; nextBefore: string | null };
    expect(second.data.map((item) => item.id)).toEqual([survey.ids[2], survey.ids[1]]);
    const last = (await (await submissions(api, survey.surveyId, `?limit=2&before=${second.nextBefore}`)).json()) as { data: Array<{ id: string }>; nextBefore: string | null };
    expect(last.data.map((item) => item.id)).toEqual([survey.ids[0]]);
    expect(last.nextBefore).toBeNull();
  });

  it("searches a substring of the fields, case-insensitively", async ({ api, survey }) => {
    const moth = (await (await submissions(api, survey.surveyId, "?search=MOTH")).json()) as { data: Array<{ id: string }> };
    expect(moth.data.map((item) => item.id)).toEqual([survey.ids[1]]);
    const byName = (await (await submissions(api, survey.surveyId, `?search=${encodeURIComponent('"name":"ada"')}`)).json()) as { data: Array<{ id: string }> };
    expect(byName.data.map((item) => item.id)).toEqual([survey.ids[0]]);
    const none = (await (await submissions(api, survey.surveyId, "?search=nobody-wrote-this")).json()) as { data: unknown[] };
    expect(none.data).toEqual([]);
  });

  it("exports CSV: one column per field name seen, plus id, submittedAt and ip", async ({ api, survey }) => {
    const response = await submissions(api, survey.surveyId, "?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="survey-submissions.csv"');
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,submittedAt,ip,name,rating,comment");
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(new RegExp(`^${survey.ids[4]},[^,]+,127\\.0\\.0\\.1,Edsger,5,$`));
    expect(lines[3]).toMatch(new RegExp(`^${survey.ids[2]},[^,]+,127\\.0\\.0\\.1,Linus,,'=1\\+1$`));
    const searched = (await (await submissions(api, survey.surveyId, "?format=csv&search=engines")).text()).trimEnd().split("\r\n");
    expect(searched).toEqual(["id,submittedAt,ip,name,comment", expect.stringContaining("Ada,Loves engines")]);
  });
});
