"use client";

import { useMemo, useSyncExternalStore } from "react";
import { RECORD_EVENTS, type RecordEventType } from "@/lib/automations/automation-constants";
import type { ErrorIssue } from "@/lib/errors";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldError } from "@/components/ui/form-error";
import { FieldShell, TextField } from "@/components/ui/field";
import { NameSelect } from "@/components/ui/input";
import { newKey } from "@/components/endpoints/endpoint-draft";
import { AllowedOriginsField, Checkbox } from "@/components/endpoints/form-controls";
import { issuesUnder, messageAt } from "@/components/endpoints/issues";
import { recordSchemaNames, SchemaSelectField, type EditorSchema } from "@/components/endpoints/schema-select-field";
import { ConditionChecks, PassWhenField } from "@/components/endpoints/step-forms/condition";
import type { AutomationDraft } from "./automation-draft";
import { formatScheduleTime, previewSchedule } from "./schedule-preview";

const EVENT_LABELS: Record<RecordEventType, string> = { create: "Created", update: "Updated", delete: "Deleted" };

/** The form's public address and a snippet, shown once the automation is saved. */
export interface SavedForm {
  form: string;
  url: string;
  snippet: string;
}

export function FormTriggerSettings({
  draft,
  change,
  issues,
  savedForm,
}: {
  draft: AutomationDraft["form"];
  change: (patch: Partial<AutomationDraft["form"]>) => void;
  issues: readonly ErrorIssue[];
  savedForm: SavedForm | null;
}) {
  const error = (path: string) => messageAt(issues, `trigger.${path}`);
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <TextField
          id="trigger-form"
          label="Form slug"
          error={error("form")}
          hint="Lowercase letters, digits and dashes; unique in the project. It is part of the form's public URL."
          value={draft.form}
          onChange={(event) => change({ form: event.target.value })}
          placeholder="contact"
          className="font-mono"
          autoComplete="off"
        />
        <TextField
          id="trigger-honeypot"
          label="Honeypot field"
          error={error("honeypot")}
          hint="Optional: a field people leave empty. Submissions that fill it are answered as accepted and dropped."
          value={draft.honeypot}
          onChange={(event) => change({ honeypot: event.target.value })}
          placeholder="website"
          className="font-mono"
          autoComplete="off"
        />
      </div>
      <div className="grid gap-4 @xl:grid-cols-2">
        <AllowedOriginsField
          id="trigger-origins"
          value={draft.allowedOrigins}
          onChange={(allowedOrigins) => change({ allowedOrigins })}
          error={error("allowedOrigins")}
          hint="One per line, such as https://shop.example, or * for any. Only needed for posts with fetch; plain HTML form posts need none."
        />
        <TextField
          id="trigger-redirect"
          label="Redirect URL"
          error={error("redirectUrl")}
          hint="Optional: where a browser is sent after an HTML form post (303). Fixed here, never taken from the submission."
          type="url"
          value={draft.redirectUrl}
          onChange={(event) => change({ redirectUrl: event.target.value })}
          placeholder="https://shop.example/thanks"
          className="font-mono"
        />
      </div>
      {savedForm ? (
        <section aria-labelledby="form-url-heading" className="space-y-3 rounded-lg border border-slate-200 bg-slate-50/60 p-4">
          <h3 id="form-url-heading" className="text-sm font-medium text-slate-900">
            Public form URL
          </h3>
          <div className="flex items-center gap-2 rounded-md bg-slate-100 px-3 py-2">
            <span className="shrink-0 font-mono text-xs font-semibold text-slate-600">POST</span>
            <code data-testid="form-url" className="min-w-0 flex-1 truncate font-mono text-sm text-slate-800">
              {savedForm.url}
            </code>
            <CopyButton value={savedForm.url} label="Copy URL" />
          </div>
          {draft.form.trim() !== savedForm.form && <p className="text-xs text-amber-800">The slug was changed: save to publish the form at its new address.</p>}
          <div>
            <div className="flex items-center justify-between gap-2">
              <h4 className="text-xs font-medium uppercase tracking-wide text-slate-500">HTML to paste into your site</h4>
              <CopyButton value={savedForm.snippet} label="Copy HTML" />
            </div>
            <CodeBlock label="Form HTML" className="mt-1 max-h-64 rounded-md bg-white px-3 py-2 text-slate-800 ring-1 ring-slate-200 ring-inset">
              {savedForm.snippet}
            </CodeBlock>
            <p className="mt-1 text-xs text-slate-500">Any field names work: the flow reads them as {"{{trigger.fields.<name>}}"}.</p>
          </div>
        </section>
      ) : (
        <p className="text-xs text-slate-500">The form&apos;s public URL and an HTML snippet appear here once the automation is saved.</p>
      )}
    </div>
  );
}

export function RecordTriggerSettings({
  draft,
  change,
  issues,
  schemas,
}: {
  draft: AutomationDraft["record"];
  change: (patch: Partial<AutomationDraft["record"]>) => void;
  issues: readonly ErrorIssue[];
  schemas: readonly EditorSchema[];
}) {
  const error = (path: string) => messageAt(issues, `trigger.${path}`);
  const eventsError = error("events");
  const combinatorError = error("condition.combinator");
  const conditionError = issues.find((issue) => issue.path === "trigger.condition")?.message;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <SchemaSelectField
          id="trigger-schema"
          names={recordSchemaNames(schemas)}
          value={draft.schema}
          onChange={(schema) => change({ schema })}
          error={error("schema")}
          hint="Changes to its records start a run."
        />
        <fieldset aria-describedby={eventsError ? "trigger-events-error" : "trigger-events-hint"}>
          <legend className="text-sm font-medium text-slate-700">Events</legend>
          <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            {RECORD_EVENTS.map((event) => (
              <Checkbox
                key={event}
                id={`trigger-event-${event}`}
                label={EVENT_LABELS[event]}
                checked={draft.events.includes(event)}
                onChange={(on) => change({ events: on ? [...draft.events, event] : draft.events.filter((candidate) => candidate !== event) })}
              />
            ))}
          </div>
          {!eventsError && (
            <p id="trigger-events-hint" className="mt-1 text-xs text-slate-500">
              Writes made by flows start no runs.
            </p>
          )}
          <FieldError id="trigger-events-error" message={eventsError} />
        </fieldset>
      </div>
      <Checkbox
        id="trigger-conditional"
        label="Only when checks pass"
        hint="Checks read the event: {{trigger.event}}, {{trigger.record.<field>}}, {{trigger.previous.<field>}}."
        checked={draft.conditional}
        onChange={(conditional) =>
          change({ conditional, checks: conditional && draft.checks.length === 0 ? [{ key: newKey("check"), left: "", operator: "equals", right: "" }] : draft.checks })
        }
      />
      {draft.conditional && (
        <div className="space-y-4 rounded-lg border border-slate-200 p-4">
          <ConditionChecks
            idPrefix="trigger-condition"
            checks={draft.checks}
            onChange={(checks) => change({ checks })}
            issues={issuesUnder(issues, "trigger.condition.checks")}
            hint="Each side is a template such as {{trigger.record.status}} or a literal; numbers compare as numbers."
            leftPlaceholder="{{trigger.record.status}}"
          />
          <PassWhenField id="trigger-combinator" value={draft.combinator} onChange={(combinator) => change({ combinator })} error={combinatorError} className="max-w-xs" />
          <FieldError id="trigger-condition-error" message={conditionError} />
        </div>
      )}
    </div>
  );
}

// The preview depends on the current time: it is computed in the browser only (the server renders a
// placeholder), and moves on every 30 seconds; a snapshot per minute keeps renders stable.
const subscribeToClock = (onChange: () => void) => {
  const timer = setInterval(onChange, 30_000);
  return () => clearInterval(timer);
};
const currentMinute = () => Math.floor(Date.now() / 60_000);
const noMinuteOnServer = () => null;

export function ScheduleTriggerSettings({
  draft,
  change,
  issues,
  timeZones,
}: {
  draft: AutomationDraft["schedule"];
  change: (patch: Partial<AutomationDraft["schedule"]>) => void;
  issues: readonly ErrorIssue[];
  timeZones: readonly string[];
}) {
  const minute = useSyncExternalStore(subscribeToClock, currentMinute, noMinuteOnServer);
  const preview = useMemo(() => (minute === null ? null : previewSchedule(draft, new Date(minute * 60_000))), [draft, minute]);
  // What the owner is typing is checked as they type; the server's answer shows until then.
  const local = (path: string) => (preview && !preview.ok ? messageAt(preview.issues, path) : undefined);
  const cronError = local("cron") ?? (preview?.ok ? undefined : messageAt(issues, "trigger.cron"));
  const zoneError = local("timezone") ?? (preview?.ok ? undefined : messageAt(issues, "trigger.timezone"));
  const cronHint = (
    <>
      Five fields: minute hour day-of-month month day-of-week. <code className="font-mono">0 9 * * 1-5</code> is 09:00 on weekdays, <code className="font-mono">*/15 * * * *</code>{" "}
      every 15 minutes.
    </>
  );
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-[1fr_16rem]">
        <TextField
          id="trigger-cron"
          label="Cron expression"
          error={cronError}
          hint={cronHint}
          value={draft.cron}
          onChange={(event) => change({ cron: event.target.value })}
          placeholder="0 9 * * 1-5"
          className="font-mono"
          autoComplete="off"
          spellCheck={false}
        />
        <FieldShell id="trigger-timezone" label="Time zone" error={zoneError}>
          <NameSelect id="trigger-timezone" names={timeZones} value={draft.timezone} onChange={(event) => change({ timezone: event.target.value })} invalid={Boolean(zoneError)} />
        </FieldShell>
      </div>
      <section aria-labelledby="schedule-preview-heading" aria-live="polite" className="rounded-lg border border-slate-200 bg-slate-50/60 px-4 py-3">
        <h3 id="schedule-preview-heading" className="text-xs font-medium uppercase tracking-wide text-slate-500">
          Next runs
        </h3>
        {preview === null ? (
          <p className="mt-1 text-sm text-slate-500">Computing…</p>
        ) : preview.ok ? (
          <ol className="mt-1 space-y-0.5 text-sm tabular-nums text-slate-800">
            {preview.times.map((time) => (
              <li key={time.toISOString()}>
                {formatScheduleTime(time, draft.timezone)}
                {draft.timezone !== "UTC" && <span className="text-slate-500"> · {formatScheduleTime(time, "UTC")}</span>}
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-1 text-sm text-slate-500">Fix the schedule to see when it runs.</p>
        )}
      </section>
    </div>
  );
}
