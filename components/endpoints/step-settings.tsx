"use client";

import type { ReactNode } from "react";
import type { ErrorIssue } from "@/lib/errors";
import { CONDITION_OPERATORS, UNARY_OPERATORS, type ConditionOperator } from "@/lib/flow/steps/condition/catalog";
import { HTTP_METHODS } from "@/lib/flow/steps/http/catalog";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import type { StepKind } from "@/lib/flow/steps/step-kind";
import { AUTH_BUILT_IN_FIELDS } from "@/lib/flow/steps/shared/project-checks";
import { SYSTEM_FIELDS } from "@/lib/records/record-names";
import { FieldError } from "@/components/ui/form-error";
import { describedBy, FieldShell, TextField } from "@/components/ui/field";
import { NameSelect, Select } from "@/components/ui/input";
import { Checkbox, RemoveRowButton, RowListFooter, Textarea } from "./form-controls";
import { newKey, type CheckDraft, type StepDraft } from "./endpoint-draft";
import { issuesUnder, messageAt } from "./issues";
import { KeyValueRows } from "./key-value-rows";
import { TemplateInput, TemplateTextarea } from "./template-field";
import { outboundHostWarning } from "./live-hints";
import { CheckVerdict, FieldWarning, TransformPreview } from "./live-previews";
import { useLastRunCheckReport, useLastRunCheckStale } from "./template-scope";
import { unindexedQueryFields } from "@/lib/flow/steps/shared/unindexed-query-fields";

/** A schema as the endpoint editor needs it: pickers for schemas, fields and relation fields, and which fields have indexes. */
export interface EditorSchema {
  name: string;
  kind: "collection" | "auth" | "component";
  fields: { name: string; type: string; unique?: boolean; indexed?: boolean }[];
}

const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equals: "equals",
  not_equals: "does not equal",
  contains: "contains",
  greater_than: "is greater than",
  less_than: "is less than",
  exists: "exists",
  not_exists: "does not exist",
};

interface SettingsProps {
  step: StepDraft;
  onChange: (patch: Partial<StepDraft>) => void;
  /** Issues of this step, paths relative to it (`expression`, `checks.0.right`). */
  issues: readonly ErrorIssue[];
  schemas: readonly EditorSchema[];
  emailTemplates: readonly string[];
}

/** Every kind's settings form: a kind without one fails the type check instead of rendering nothing. */
const SETTINGS_FORMS = {
  query: QuerySettings,
  transform: TransformSettings,
  condition: ConditionSettings,
  create: RecordWriteSettings,
  update: RecordWriteSettings,
  http: HttpSettings,
  webhook: WebhookSettings,
  email: EmailSettings,
} satisfies Record<StepKind, (props: SettingsProps) => ReactNode>;

/** The settings form of one step, written for its kind's zod schema in lib/flow/steps/<kind>/definition.ts. */
export function StepSettings(props: SettingsProps) {
  const Form = SETTINGS_FORMS[props.step.type];
  return <Form {...props} />;
}

function useSetting({ step, onChange, issues }: SettingsProps) {
  const text = (key: string) => {
    const value = step.settings[key];
    return typeof value === "string" ? value : "";
  };
  const set = (key: string, value: string | string[]) => onChange({ settings: { ...step.settings, [key]: value } });
  const id = (key: string) => `${step.key}-${key}`;
  const error = (key: string) => messageAt(issues, key);
  return { text, set, id, error };
}

/** A schema of the project chosen by name (steps, the record trigger, the end-user auth schema); says so while there is none to choose. */
export function SchemaSelectField({
  id,
  label = "Schema",
  names,
  value,
  onChange,
  error,
  hint,
  emptyLabel = "Choose a schema…",
  noneHint = "This project has no schemas yet: create one under Schemas.",
  className = "font-mono",
}: {
  id: string;
  label?: string;
  names: readonly string[];
  value: string;
  onChange: (name: string) => void;
  error?: string;
  hint?: string;
  emptyLabel?: string;
  noneHint?: string;
  /** The select's classes. */
  className?: string;
}) {
  return (
    <FieldShell id={id} label={label} error={error} hint={names.length === 0 ? noneHint : hint}>
      <NameSelect id={id} names={names} emptyLabel={emptyLabel} value={value} onChange={(event) => onChange(event.target.value)} invalid={Boolean(error)} className={className} />
    </FieldShell>
  );
}

/** The names of the schemas that hold records (components do not). */
export function recordSchemaNames(schemas: readonly EditorSchema[]): string[] {
  return schemas.filter((schema) => schema.kind !== "component").map((schema) => schema.name);
}

function SchemaPicker({ props }: { props: SettingsProps }) {
  const { text, set, id, error } = useSetting(props);
  return <SchemaSelectField id={id("schema")} names={recordSchemaNames(props.schemas)} value={text("schema")} onChange={(name) => set("schema", name)} error={error("schema")} />;
}

function fieldNamesOf(schemas: readonly EditorSchema[], name: string, options: { system?: boolean } = {}): string[] {
  const schema = schemas.find((candidate) => candidate.name === name);
  if (!schema) return [];
  return [...(options.system ? SYSTEM_FIELDS : []), ...(schema.kind === "auth" ? AUTH_BUILT_IN_FIELDS : []), ...schema.fields.map((field) => field.name)];
}

/** A setting written as a template over several lines (filters, bodies). */
function TemplateAreaSetting({
  props,
  name,
  label,
  hint,
  placeholder,
  rows = 4,
  mono = true,
}: {
  props: SettingsProps;
  name: string;
  label: string;
  hint?: ReactNode;
  placeholder: string;
  rows?: number;
  mono?: boolean;
}) {
  const { text, set, id, error } = useSetting(props);
  return (
    <FieldShell id={id(name)} label={label} error={error(name)} hint={hint}>
      <TemplateTextarea
        id={id(name)}
        rows={rows}
        mono={mono}
        value={text(name)}
        onValueChange={(value) => set(name, value)}
        placeholder={placeholder}
        invalid={Boolean(error(name))}
      />
    </FieldShell>
  );
}

function FiltersInput({ props, required }: { props: SettingsProps; required?: boolean }) {
  const hint = required
    ? "One field=value per line; the first record matching all of them is updated."
    : "One field=value per line; records must match all of them. Empty: every record.";
  return <TemplateAreaSetting props={props} name="filters" label="Filters" hint={hint} rows={3} placeholder={"status=open\nauthor={{user.id}}"} />;
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}

/** Says which filtered or sorted fields no index serves, while the collection is still small enough not to notice. */
function IndexAdvice({ props }: { props: SettingsProps }) {
  const { text, id } = useSetting(props);
  const schema = props.schemas.find((candidate) => candidate.name === text("schema"));
  if (!schema) return null;
  const unindexed = unindexedQueryFields(schema, { filters: props.step.settings.filters, sort: props.step.type === "query" ? props.step.settings.sort : null });
  const parts = [unindexed.filters.length > 0 ? `filters on ${quoted(unindexed.filters)}` : null, unindexed.sort !== null ? `sorts by "${unindexed.sort}"` : null].filter(
    (part): part is string => part !== null,
  );
  if (parts.length === 0) return null;
  const fields = [...new Set([...unindexed.filters, ...(unindexed.sort === null ? [] : [unindexed.sort])])];
  return (
    <p id={id("index-advice")} role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900 @xl:col-span-2">
      No index serves this step&apos;s {parts.join(" and ")}: in a large collection it reads every record on each run. Mark {quoted(fields)} as
      <span className="font-medium"> Indexed</span> in the {schema.name} schema to keep it fast as records grow.
    </p>
  );
}

function QuerySettings(props: SettingsProps) {
  const { text, set, id, error } = useSetting(props);
  const schema = props.schemas.find((candidate) => candidate.name === text("schema"));
  const sortable = fieldNamesOf(props.schemas, text("schema"), { system: true });
  const relations = schema?.fields.filter((field) => field.type === "relation").map((field) => field.name) ?? [];
  const expand = Array.isArray(props.step.settings.expand) ? props.step.settings.expand : [];
  const sort = text("sort");
  return (
    <div className="grid gap-4 @xl:grid-cols-2">
      <SchemaPicker props={props} />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          id={id("limit")}
          label="Limit"
          error={error("limit")}
          hint={`At most ${FLOW_LIMITS.maxQueryLimit}.`}
          type="number"
          min={1}
          max={FLOW_LIMITS.maxQueryLimit}
          value={text("limit")}
          onChange={(event) => set("limit", event.target.value)}
        />
        <FieldShell id={id("sort")} label="Sort" error={error("sort")}>
          <Select id={id("sort")} value={sort} onChange={(event) => set("sort", event.target.value)} invalid={Boolean(error("sort"))}>
            <option value="">Store order</option>
            {sortable.flatMap((field) => [
              <option key={field} value={field}>
                {field} ↑
              </option>,
              <option key={`-${field}`} value={`-${field}`}>
                {field} ↓
              </option>,
            ])}
            {sort && !sortable.includes(sort.replace(/^-/, "")) && <option value={sort}>{sort}</option>}
          </Select>
        </FieldShell>
      </div>
      <div className="@xl:col-span-2">
        <FiltersInput props={props} />
      </div>
      <IndexAdvice props={props} />
      <fieldset className="@xl:col-span-2">
        <legend className="text-sm font-medium text-slate-700">Expand relations</legend>
        {relations.length === 0 && expand.length === 0 ? (
          <p className="mt-1 text-xs text-slate-500">{schema ? `${schema.name} has no relation fields.` : "Choose a schema to see its relation fields."}</p>
        ) : (
          <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
            {[...new Set([...relations, ...expand])].map((field) => (
              <Checkbox
                key={field}
                id={id(`expand-${field}`)}
                label={<span className="font-mono text-xs">{field}</span>}
                checked={expand.includes(field)}
                onChange={(on) => set("expand", on ? [...expand, field] : expand.filter((name) => name !== field))}
              />
            ))}
          </div>
        )}
        <p className="mt-1 text-xs text-slate-500">Related records appear under expand.&lt;field&gt; in each record.</p>
        <FieldError id={id("expand-error")} message={error("expand")} />
      </fieldset>
    </div>
  );
}

function TransformSettings(props: SettingsProps) {
  const { text, set, id, error } = useSetting(props);
  const hint = (
    <>
      A JMESPath expression over the whole context: <code className="font-mono">body</code>, <code className="font-mono">query</code>, <code className="font-mono">user</code>,{" "}
      <code className="font-mono">steps.&lt;name&gt;</code>. Example: <code className="font-mono">{"steps.query1[?status=='open'].{id: id, title: title}"}</code>
    </>
  );
  return (
    <div>
      <FieldShell id={id("expression")} label="Expression" error={error("expression")} hint={hint}>
        <Textarea
          id={id("expression")}
          rows={4}
          mono
          value={text("expression")}
          onChange={(event) => set("expression", event.target.value)}
          placeholder="{open: length(steps.query1[?status=='open']), total: length(steps.query1)}"
          invalid={Boolean(error("expression"))}
          aria-describedby={describedBy(id("expression"), hint, error("expression"))}
        />
      </FieldShell>
      <TransformPreview id={id("expression-preview")} expression={text("expression")} />
    </div>
  );
}

function ConditionSettings(props: SettingsProps) {
  const { step, onChange, issues } = props;
  const { text, set, id, error } = useSetting(props);
  return (
    <div className="space-y-4">
      <ConditionChecks idPrefix={step.key} checks={step.checks} onChange={(checks) => onChange({ checks })} issues={issuesUnder(issues, "checks")} />
      <div className="grid gap-4 @xl:grid-cols-[12rem_10rem_1fr]">
        <PassWhenField id={id("combinator")} value={text("combinator") === "any" ? "any" : "all"} onChange={(value) => set("combinator", value)} error={error("combinator")} />
        <TextField
          id={id("stopStatus")}
          label="Stop status"
          error={error("stopStatus")}
          hint="Default 422."
          type="number"
          min={200}
          max={599}
          value={text("stopStatus")}
          onChange={(event) => set("stopStatus", event.target.value)}
          placeholder="422"
        />
        <FieldShell id={id("stopBody")} label="Stop body" error={error("stopBody")} hint='Default {"error":"condition not met"}.'>
          <TemplateInput
            id={id("stopBody")}
            value={text("stopBody")}
            onValueChange={(value) => set("stopBody", value)}
            placeholder='{"error": "status is required"}'
            className="font-mono"
            invalid={Boolean(error("stopBody"))}
          />
        </FieldShell>
      </div>
    </div>
  );
}

/** Whether a condition passes when all its checks pass or when any does. */
export function PassWhenField({
  id,
  value,
  onChange,
  error,
  className,
}: {
  id: string;
  value: "all" | "any";
  onChange: (value: "all" | "any") => void;
  error?: string;
  className?: string;
}) {
  return (
    <FieldShell id={id} label="Pass when" error={error} className={className}>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value === "any" ? "any" : "all")}>
        <option value="all">all checks pass</option>
        <option value="any">any check passes</option>
      </Select>
    </FieldShell>
  );
}

/**
 * The checks of a condition: left template, operator, right template, remove, "+ Add check". Used by
 * the condition step and by an automation's record trigger condition. `issues` are relative to the
 * checks (`0.left`, or "" for the list as a whole); ids start with `idPrefix`.
 */
export function ConditionChecks({
  idPrefix,
  checks,
  onChange,
  issues,
  hint = <>Each side is a template such as {"{{body.status}}"} or a literal; numbers compare as numbers.</>,
  leftPlaceholder = "{{body.status}}",
}: {
  idPrefix: string;
  checks: readonly CheckDraft[];
  onChange: (checks: CheckDraft[]) => void;
  issues: readonly ErrorIssue[];
  hint?: ReactNode;
  leftPlaceholder?: string;
}) {
  const updateCheck = (key: string, patch: Partial<CheckDraft>) => onChange(checks.map((check) => (check.key === key ? { ...check, ...patch } : check)));
  const wholeChecks = issues.find((issue) => issue.path === "")?.message;
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">Checks</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      <div className="mt-2 space-y-2">
        {checks.map((check, index) => {
          const unary = UNARY_OPERATORS.has(check.operator);
          const checkIssues = issuesUnder(issues, String(index));
          const checkId = `${idPrefix}-${check.key}`;
          return (
            <div key={check.key}>
              <CheckRow checkKey={check.key} checkId={checkId}>
                {/* Wraps in a narrow flow pane, so that neither side shrinks to a few characters. */}
                <div className="flex flex-wrap items-start gap-2">
                  <div className="min-w-36 flex-1">
                    <label htmlFor={`${checkId}-left`} className="sr-only">{`Check ${index + 1} left side`}</label>
                    <TemplateInput
                      id={`${checkId}-left`}
                      value={check.left}
                      onValueChange={(left) => updateCheck(check.key, { left })}
                      placeholder={leftPlaceholder}
                      className="font-mono"
                      invalid={Boolean(messageAt(checkIssues, "left"))}
                      aria-describedby={checkIssues.length > 0 ? `${checkId}-error` : undefined}
                    />
                  </div>
                  <div className="w-44 shrink-0">
                    <label htmlFor={`${checkId}-operator`} className="sr-only">{`Check ${index + 1} operator`}</label>
                    <Select id={`${checkId}-operator`} value={check.operator} onChange={(event) => updateCheck(check.key, { operator: event.target.value as ConditionOperator })}>
                      {CONDITION_OPERATORS.map((operator) => (
                        <option key={operator} value={operator}>
                          {OPERATOR_LABELS[operator]}
                        </option>
                      ))}
                    </Select>
                  </div>
                  <div className={unary ? "flex-1" : "min-w-36 flex-1"}>
                    {!unary && (
                      <>
                        <label htmlFor={`${checkId}-right`} className="sr-only">{`Check ${index + 1} right side`}</label>
                        <TemplateInput
                          id={`${checkId}-right`}
                          value={check.right}
                          onValueChange={(right) => updateCheck(check.key, { right })}
                          placeholder="open"
                          className="font-mono"
                          invalid={Boolean(messageAt(checkIssues, "right"))}
                          aria-describedby={checkIssues.length > 0 ? `${checkId}-error` : undefined}
                        />
                      </>
                    )}
                  </div>
                  <div className="pt-1">
                    <RemoveRowButton label={`Remove check ${index + 1}`} onClick={() => onChange(checks.filter((candidate) => candidate.key !== check.key))} />
                  </div>
                </div>
                {checkIssues.length > 0 && (
                  <FieldError id={`${checkId}-error`} message={checkIssues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ")} />
                )}
              </CheckRow>
            </div>
          );
        })}
      </div>
      <RowListFooter
        id={`${idPrefix}-checks`}
        error={wholeChecks}
        addLabel="Add check"
        disabled={checks.length >= FLOW_LIMITS.maxConditionChecks}
        onAdd={() => onChange([...checks, { key: newKey("check"), left: "", operator: "equals", right: "" }])}
      />
    </fieldset>
  );
}

/** A check's row with, under it, how the last test run decided that check (when it ran). */
function CheckRow({ checkKey, checkId, children }: { checkKey: string; checkId: string; children: ReactNode }) {
  const report = useLastRunCheckReport(checkKey);
  const stale = useLastRunCheckStale(checkKey);
  return (
    <>
      {children}
      {report && <CheckVerdict id={`${checkId}-verdict`} report={report} stale={stale} />}
    </>
  );
}

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

function RecordWriteSettings(props: SettingsProps) {
  const { step, onChange, issues } = props;
  const { text } = useSetting(props);
  const fields = fieldNamesOf(props.schemas, text("schema")).filter((name) => name !== "emailVerified" || step.type === "update");
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <SchemaPicker props={props} />
      </div>
      {step.type === "update" && <FiltersInput props={props} required />}
      {step.type === "update" && <IndexAdvice props={props} />}
      <KeyValueRows
        id={`${step.key}-values`}
        legend="Field values"
        hint="Templates such as {{body.title}}; a value that is one placeholder keeps its type. Required, type, unique and relation rules apply."
        rows={step.rows}
        onChange={(rows) => onChange({ rows })}
        issues={issuesUnder(issues, "values")}
        nameLabel="Field"
        valueLabel="Value"
        valuePlaceholder="{{body.title}}"
        nameOptions={text("schema") ? fields : undefined}
        namePlaceholder="field"
        addLabel="Add field value"
      />
    </div>
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

function HttpSettings(props: SettingsProps) {
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

function WebhookSettings(props: SettingsProps) {
  return (
    <div className="space-y-4">
      <OutboundUrlField props={props} hint="Receives a POST; the reply is not awaited or captured." placeholder="https://hooks.example.com/new-ticket" />
      <HeadersRows {...props} />
      <TemplateAreaSetting props={props} name="body" label="Body" hint="Empty: the whole trigger payload as JSON." placeholder='{"ticket": {{steps.create1}}}' />
    </div>
  );
}

function EmailSettings(props: SettingsProps) {
  const { text, set, id, error } = useSetting(props);
  const template = text("template");
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <FieldShell id={id("to")} label="To" error={error("to")} hint="Addresses separated by commas; placeholders allowed.">
          <TemplateInput
            id={id("to")}
            value={text("to")}
            onValueChange={(value) => set("to", value)}
            placeholder="{{body.email}}"
            className="font-mono"
            invalid={Boolean(error("to"))}
          />
        </FieldShell>
        <FieldShell id={id("template")} label="Content" error={error("template")}>
          <NameSelect
            id={id("template")}
            names={props.emailTemplates}
            emptyLabel="Write subject and body here"
            format={(name) => `Saved template: ${name}`}
            value={template}
            onChange={(event) => set("template", event.target.value)}
          />
        </FieldShell>
      </div>
      {template === "" && (
        <>
          <div className="grid gap-4 @xl:grid-cols-[1fr_10rem]">
            <FieldShell id={id("subject")} label="Subject" error={error("subject")}>
              <TemplateInput
                id={id("subject")}
                value={text("subject")}
                onValueChange={(value) => set("subject", value)}
                placeholder="Thanks, {{body.name}}"
                invalid={Boolean(error("subject"))}
              />
            </FieldShell>
            <FieldShell id={id("format")} label="Format" error={error("format")}>
              <Select id={id("format")} value={text("format") || "text"} onChange={(event) => set("format", event.target.value)}>
                <option value="text">Plain text</option>
                <option value="html">HTML</option>
              </Select>
            </FieldShell>
          </div>
          <TemplateAreaSetting
            props={props}
            name="body"
            label="Body"
            hint={text("format") === "html" ? "Values placed into HTML are escaped." : undefined}
            rows={5}
            mono={false}
            placeholder={"Hello {{body.name}},\n\nWe received your request."}
          />
        </>
      )}
    </div>
  );
}
