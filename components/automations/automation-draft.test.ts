import { describe, expect, it } from "vitest";
import { automationInputSchema } from "@/lib/automations/automation-definition";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { previewValue } from "@/lib/flow/execution-log/preview";
import { newAutomationDraft, toAutomationDraft, toAutomationInput } from "./automation-draft";
import { formActionUrl, formSnippet } from "./form-snippet";
import { replayPayloadOf } from "@/lib/automations/replay-payload";
import { previewSchedule } from "./schedule-preview";

const STEPS = [
  {
    type: "condition",
    name: null,
    enabled: true,
    continueOnError: false,
    checks: [{ left: "{{trigger.fields.email}}", operator: "exists" }],
    combinator: "all",
    stopStatus: null,
    stopBody: null,
  },
  { type: "create", name: "saved", enabled: true, continueOnError: false, schema: "leads", values: { email: "{{trigger.fields.email}}", score: 3 } },
  { type: "email", name: null, enabled: true, continueOnError: true, to: "ops@example.com", template: null, subject: "New lead", body: "{{trigger.fields.email}}", format: "text" },
];

const DEFINITIONS = {
  form: {
    name: "Contact form",
    enabled: true,
    trigger: { type: "form", form: "contact", allowedOrigins: ["https://shop.example"], honeypot: "website", redirectUrl: "https://shop.example/thanks" },
    steps: STEPS,
    retry: { attempts: 2, backoffSeconds: 60 },
  },
  record: {
    name: "Closed tickets",
    enabled: false,
    trigger: {
      type: "record",
      schema: "tickets",
      events: ["create", "update"],
      condition: {
        checks: [
          { left: "{{trigger.record.status}}", operator: "equals", right: "closed" },
          { left: "{{trigger.previous}}", operator: "exists" },
        ],
        combinator: "any",
      },
    },
    steps: [],
    retry: { attempts: 0, backoffSeconds: 30 },
  },
  schedule: {
    name: "Digest",
    enabled: true,
    trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "Europe/Berlin" },
    steps: STEPS.slice(2),
    retry: { attempts: 5, backoffSeconds: 3600 },
  },
  manual: { name: "By hand", enabled: true, trigger: { type: "manual" }, steps: [], retry: { attempts: 0, backoffSeconds: 30 } },
};

describe("automation drafts", () => {
  it.each(Object.entries(DEFINITIONS))("round-trip a %s automation to the same validated definition", (_type, definition) => {
    const canonical = automationInputSchema.parse(definition);
    const input = toAutomationInput(toAutomationDraft(canonical));
    expect(automationInputSchema.parse(input)).toEqual(canonical);
    // The steps come back as the endpoint editor's drafts give them (same conversion).
    expect(input.steps).toEqual(canonical.steps);
  });

  it("keep what was typed for the other trigger types while switching, and send only the chosen one", () => {
    const draft = toAutomationDraft(automationInputSchema.parse(DEFINITIONS.form));
    const asSchedule = toAutomationInput({ ...draft, triggerType: "schedule" });
    expect(asSchedule.trigger).toEqual({ type: "schedule", cron: "0 9 * * 1-5", timezone: "UTC" });
    expect(toAutomationInput({ ...draft, triggerType: "form" }).trigger).toMatchObject({ form: "contact", honeypot: "website" });
  });

  it("send events in the listed order, no condition unless asked, and an empty checks list when asked without checks", () => {
    const draft = newAutomationDraft();
    draft.triggerType = "record";
    draft.record = { ...draft.record, schema: "tickets", events: ["delete", "create"] };
    expect(toAutomationInput(draft).trigger).toEqual({ type: "record", schema: "tickets", events: ["create", "delete"], condition: null });
    draft.record.conditional = true;
    const parsed = automationInputSchema.safeParse(toAutomationInput(draft));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toContain("trigger.condition.checks");
  });

  it("pass retry numbers typed as text to the server as they are, so its message lands under the input", () => {
    const draft = newAutomationDraft();
    draft.name = "x";
    draft.retry = { attempts: "seven", backoffSeconds: "" };
    const input = toAutomationInput(draft);
    expect(input.retry).toEqual({ attempts: "seven", backoffSeconds: 30 });
    const parsed = automationInputSchema.safeParse(input);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["retry.attempts"]);
  });

  it("turn blank optional form settings into null and origins into a list", () => {
    const draft = newAutomationDraft();
    draft.triggerType = "form";
    draft.form = { form: " contact ", allowedOrigins: " https://a.example \n\n*", honeypot: "  ", redirectUrl: "" };
    expect(toAutomationInput(draft).trigger).toEqual({ type: "form", form: "contact", allowedOrigins: ["https://a.example", "*"], honeypot: null, redirectUrl: null });
  });
});

describe("schedule preview", () => {
  it("lists the next three times in the schedule's zone, strictly after the given time", () => {
    const preview = previewSchedule({ cron: "0 9 * * *", timezone: "Europe/Berlin" }, new Date("2030-03-30T12:00:00Z"));
    expect(preview.ok && preview.times.map((time) => time.toISOString())).toEqual([
      "2030-03-31T07:00:00.000Z", // summer time from this day on: 09:00 CEST
      "2030-04-01T07:00:00.000Z",
      "2030-04-02T07:00:00.000Z",
    ]);
  });

  it("answers the problems at the paths the server uses", () => {
    const preview = previewSchedule({ cron: "0 9 * *", timezone: "Mars/Olympus" }, new Date());
    expect(preview.ok).toBe(false);
    expect(!preview.ok && preview.issues.map((issue) => issue.path).sort()).toEqual(["cron", "timezone"]);
  });
});

describe("form snippet", () => {
  it("posts to the form's URL and escapes every value placed in attributes", () => {
    const url = formActionUrl("https://fn.example/api/projects/prj_1/forms/", "contact");
    expect(url).toBe("https://fn.example/api/projects/prj_1/forms/contact");
    const snippet = formSnippet({ actionUrl: `${url}?a="><script>`, honeypot: 'web"site' });
    expect(snippet).toContain('action="https://fn.example/api/projects/prj_1/forms/contact?a=&quot;&gt;&lt;script&gt;"');
    expect(snippet).toContain('name="web&quot;site"');
    expect(snippet).not.toContain("<script>");
    expect(formSnippet({ actionUrl: url, honeypot: null })).not.toContain("tabindex");
  });
});

describe("replaying a logged run", () => {
  const entry = (body: unknown, extra: Partial<ExecutionLogEntry> = {}): ExecutionLogEntry => ({
    id: "exe_00000000000000000000000000",
    source: "automation",
    endpointId: null,
    automationId: "aut_1",
    method: null,
    slug: null,
    trigger: "form",
    attempt: 1,
    retryOf: null,
    startedAt: new Date().toISOString(),
    durationMs: 1,
    outcome: "failed",
    httpStatus: null,
    error: "boom",
    steps: [],
    request: body === undefined ? null : { query: null, body: previewValue(body) },
    ...extra,
  });

  it("gives back the logged trigger payload", () => {
    expect(replayPayloadOf(entry({ fields: { email: "ada@example.com" }, n: 1 }))).toEqual({ ok: true, payload: { fields: { email: "ada@example.com" }, n: 1 } });
  });

  it("refuses payloads the log did not keep whole, with a reason", () => {
    const cases = [
      entry(undefined),
      entry({ big: "x".repeat(5_000) }),
      entry({ password: "hunter2", email: "a@b.c" }),
      entry({ note: "Bearer abc.def" }),
      entry({ a: 1 }, { sanitized: true }),
      entry({ a: 1 }, { source: "endpoint" }),
      entry([1, 2]),
    ];
    for (const candidate of cases) {
      const replay = replayPayloadOf(candidate);
      expect(replay.ok, JSON.stringify(candidate.request)).toBe(false);
      expect(!replay.ok && replay.reason.length).toBeGreaterThan(10);
    }
  });
});
