import { DEFAULT_BACKOFF_SECONDS, RECORD_EVENTS, type RecordEventType, type TriggerType } from "@/lib/automations/automation-constants";
import type { AutomationInput } from "@/lib/automations/automation-definition";
import { toCheckDrafts, toCheckInputs, toStepDraft, toStepInput, type CheckDraft, type StepDraft } from "@/components/endpoints/endpoint-draft";

/**
 * An automation as the editor holds it: text as typed (numbers too), every trigger type's fields
 * at once (switching the type back and forth loses nothing typed), steps as the endpoint editor
 * holds them. `toAutomationInput` converts once, and the server validates.
 */
export interface AutomationDraft {
  name: string;
  enabled: boolean;
  triggerType: TriggerType;
  form: {
    form: string;
    /** One origin per line. */
    allowedOrigins: string;
    honeypot: string;
    redirectUrl: string;
  };
  record: {
    schema: string;
    events: RecordEventType[];
    /** Whether the run waits for checks over `trigger.*`. */
    conditional: boolean;
    checks: CheckDraft[];
    combinator: "all" | "any";
  };
  schedule: { cron: string; timezone: string };
  steps: StepDraft[];
  retry: { attempts: string; backoffSeconds: string };
}

export const DEFAULT_CRON = "0 9 * * 1-5";

export function newAutomationDraft(): AutomationDraft {
  return {
    name: "",
    enabled: true,
    triggerType: "manual",
    form: { form: "", allowedOrigins: "", honeypot: "", redirectUrl: "" },
    record: { schema: "", events: ["create"], conditional: false, checks: [], combinator: "all" },
    schedule: { cron: DEFAULT_CRON, timezone: "UTC" },
    steps: [],
    retry: { attempts: "0", backoffSeconds: String(DEFAULT_BACKOFF_SECONDS) },
  };
}

export function toAutomationDraft(input: AutomationInput): AutomationDraft {
  const draft = newAutomationDraft();
  const { trigger } = input;
  draft.name = input.name;
  draft.enabled = input.enabled;
  draft.triggerType = trigger.type;
  if (trigger.type === "form") {
    draft.form = { form: trigger.form, allowedOrigins: trigger.allowedOrigins.join("\n"), honeypot: trigger.honeypot ?? "", redirectUrl: trigger.redirectUrl ?? "" };
  } else if (trigger.type === "record") {
    draft.record = {
      schema: trigger.schema,
      events: [...trigger.events],
      conditional: trigger.condition !== null,
      checks: toCheckDrafts(trigger.condition?.checks),
      combinator: trigger.condition?.combinator ?? "all",
    };
  } else if (trigger.type === "schedule") {
    draft.schedule = { cron: trigger.cron, timezone: trigger.timezone };
  }
  draft.steps = input.steps.map(toStepDraft);
  draft.retry = { attempts: String(input.retry.attempts), backoffSeconds: String(input.retry.backoffSeconds) };
  return draft;
}

/** A number typed as text: a number when it is one, the text otherwise (the service's message then lands under the input), `fallback` when empty. */
function numberFromText(text: string, fallback: number): number | string {
  const trimmed = text.trim();
  if (trimmed === "") return fallback;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

function triggerInput(draft: AutomationDraft): Record<string, unknown> {
  switch (draft.triggerType) {
    case "form":
      return {
        type: "form",
        form: draft.form.form.trim(),
        allowedOrigins: draft.form.allowedOrigins
          .split("\n")
          .map((origin) => origin.trim())
          .filter(Boolean),
        honeypot: draft.form.honeypot.trim() || null,
        redirectUrl: draft.form.redirectUrl.trim() || null,
      };
    case "record":
      return {
        type: "record",
        schema: draft.record.schema,
        // In the order the editor lists them, whatever order they were ticked in.
        events: RECORD_EVENTS.filter((event) => draft.record.events.includes(event)),
        condition: draft.record.conditional ? { checks: toCheckInputs(draft.record.checks), combinator: draft.record.combinator } : null,
      };
    case "schedule":
      return { type: "schedule", cron: draft.schedule.cron.trim(), timezone: draft.schedule.timezone };
    case "manual":
      return { type: "manual" };
  }
}

/** The definition as the management API (and the dashboard's actions) take it. */
export function toAutomationInput(draft: AutomationDraft): Record<string, unknown> {
  return {
    name: draft.name,
    enabled: draft.enabled,
    trigger: triggerInput(draft),
    steps: draft.steps.map(toStepInput),
    retry: { attempts: numberFromText(draft.retry.attempts, 0), backoffSeconds: numberFromText(draft.retry.backoffSeconds, DEFAULT_BACKOFF_SECONDS) },
  };
}
