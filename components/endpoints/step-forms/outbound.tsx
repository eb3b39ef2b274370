"use client";

import { HTTP_METHODS } from "@/lib/flow/steps/http/catalog";
import { describedBy, FieldShell } from "@/components/ui/field";
import { NameSelect } from "@/components/ui/input";
import { issuesUnder } from "../issues";
import { KeyValueRows } from "../key-value-rows";
import { TemplateInput } from "../template-field";
import { outboundHostWarning } from "../live-hints";
import { FieldWarning } from "../live-previews";
import { TemplateAreaSetting, useSetting, type SettingsProps } from "./shared";

/** The settings of the steps that call out: HTTP requests and webhooks. */

/** The URL field of an outbound step: the schema's errors, and a warning for a host the outbound guard refuses. */
function OutboundUrlField({ props, hint, placeholder }: { props: SettingsProps; hint: string; placeholder: string }) {
  const { text, set, id, error } = useSetting(props);
  const warning = outboundHostWarning(text("url"));
  return (
    <FieldShell id={id("url")} label="URL" error={error("url")} hint={hint}>
      <TemplateInput
        id={id("url")}
        value={text("url")}
        onValueChange={(value) => set("url", value)}
        placeholder={placeholder}
        className="font-mono"
        invalid={Boolean(error("url"))}
        aria-describedby={[describedBy(id("url"), hint, error("url")), warning ? id("url-warning") : null].filter(Boolean).join(" ") || undefined}
      />
      <FieldWarning id={id("url-warning")} message={warning} />
    </FieldShell>
  );
}

function HeadersRows(props: SettingsProps) {
  return (
    <KeyValueRows
      id={`${props.step.key}-headers`}
      legend="Headers"
      rows={props.step.rows}
      onChange={(rows) => props.onChange({ rows })}
      issues={issuesUnder(props.issues, "headers")}
      nameLabel="Header"
      valueLabel="Header value"
      namePlaceholder="Authorization"
      valuePlaceholder="Bearer {{secrets.API_TOKEN}}"
      addLabel="Add header"
    />
  );
}

export function HttpSettings(props: SettingsProps) {
  const { text, set, id, error } = useSetting(props);
  const method = text("method") || "GET";
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-[8rem_1fr]">
        <FieldShell id={id("method")} label="Method" error={error("method")}>
          <NameSelect id={id("method")} names={HTTP_METHODS} value={method} onChange={(event) => set("method", event.target.value)} />
        </FieldShell>
        <OutboundUrlField
          props={props}
          hint="Placeholders are allowed; the output is {status, ok, body}. Private addresses are blocked. Keys go in {{secrets.NAME}} (project settings → Secrets)."
          placeholder="https://api.example.com/items/{{body.id}}"
        />
      </div>
      <HeadersRows {...props} />
      {method !== "GET" || text("body") !== "" ? (
        <TemplateAreaSetting props={props} name="body" label="Body" hint="A template; JSON unless you set another content-type header." placeholder='{"title": "{{body.title}}"}' />
      ) : (
        <p className="text-xs text-slate-500">GET requests have no body.</p>
      )}
    </div>
  );
}

export function WebhookSettings(props: SettingsProps) {
  return (
    <div className="space-y-4">
      <OutboundUrlField props={props} hint="Receives a POST; the reply is not awaited or captured." placeholder="https://hooks.example.com/new-ticket" />
      <HeadersRows {...props} />
      <TemplateAreaSetting props={props} name="body" label="Body" hint="Empty: the whole trigger payload as JSON." placeholder='{"ticket": {{steps.create1}}}' />
    </div>
  );
}
