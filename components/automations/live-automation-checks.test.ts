import { describe, expect, it } from "vitest";
import { newStepDraft } from "@/components/endpoints/endpoint-draft";
import { hasLiveFlowIssues } from "@/components/endpoints/live-checks";
import { newAutomationDraft, type AutomationDraft } from "./automation-draft";
import { liveAutomationIssues } from "./live-automation-checks";

function automation(patch: Partial<AutomationDraft>): AutomationDraft {
  return { ...newAutomationDraft(), name: "Welcome subscribers", ...patch };
}

describe("live automation issues", () => {
  it("finds nothing wrong with a new automation, and nothing blocks its save", () => {
    expect(liveAutomationIssues(newAutomationDraft())).toEqual([]);
    expect(hasLiveFlowIssues(liveAutomationIssues(newAutomationDraft()), [])).toBe(false);
  });

  it("reports a form slug the API refuses at the trigger's field, with the API's message", () => {
    const draft = automation({ triggerType: "form", form: { form: "Contact Us", allowedOrigins: "", honeypot: "", redirectUrl: "" } });
    expect(liveAutomationIssues(draft)).toEqual([{ path: "trigger.form", message: "must be 1–64 lowercase letters, digits or dashes" }]);
    expect(hasLiveFlowIssues(liveAutomationIssues(draft), draft.steps)).toBe(true);
  });

  it("checks origins, the redirect URL and retries as they are typed", () => {
    const draft = automation({
      triggerType: "form",
      form: { form: "contact", allowedOrigins: "https://shop.example\nshop.example/path", honeypot: "", redirectUrl: "ftp://files.example" },
      retry: { attempts: "9", backoffSeconds: "30" },
    });
    expect(liveAutomationIssues(draft).map((issue) => issue.path)).toEqual(["trigger.allowedOrigins.1", "trigger.redirectUrl", "retry.attempts"]);
  });

  it("leaves a trigger field still empty to Save, whatever the trigger type", () => {
    expect(liveAutomationIssues(automation({ triggerType: "form" }))).toEqual([]);
    expect(liveAutomationIssues(automation({ triggerType: "schedule", schedule: { cron: "", timezone: "UTC" } }))).toEqual([]);
    expect(liveAutomationIssues(automation({ triggerType: "schedule", schedule: { cron: "* *", timezone: "UTC" } })).map((issue) => issue.path)).toEqual(["trigger.cron"]);
  });

  it("only judges the chosen trigger: a bad slug typed under another type is kept but not reported", () => {
    const draft = automation({ triggerType: "manual", form: { form: "Contact Us", allowedOrigins: "", honeypot: "", redirectUrl: "" } });
    expect(liveAutomationIssues(draft)).toEqual([]);
  });

  it("blocks saving on a step's live issue even when the automation's own fields are fine", () => {
    const step = { ...newStepDraft("transform"), settings: { ...newStepDraft("transform").settings, expression: "steps.a[?x==" } };
    expect(hasLiveFlowIssues(liveAutomationIssues(automation({})), [step])).toBe(true);
  });
});
