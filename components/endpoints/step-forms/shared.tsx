"use client";

import type { ReactNode } from "react";
import type { ErrorIssue } from "@/lib/errors";
import { AUTH_BUILT_IN_FIELDS } from "@/lib/flow/steps/shared/project-checks";
import { unindexedQueryFields } from "@/lib/flow/steps/shared/unindexed-query-fields";
import { SYSTEM_FIELDS } from "@/lib/records/record-names";
import { FieldShell } from "@/components/ui/field";
import { type StepDraft } from "../endpoint-draft";
import { messageAt } from "../issues";
import { recordSchemaNames, SchemaSelectField, type EditorSchema } from "../schema-select-field";
import { TemplateTextarea } from "../template-field";

/** The pieces the step kinds' settings forms (one module each, loaded as the flow needs them) share. */

/** What every kind's settings form is given (step-settings.tsx renders the step's kind). */
export interface SettingsProps {
  step: StepDraft;
  onChange: (patch: Partial<StepDraft>) => void;
  /** Issues of this step, paths relative to it (`expression`, `checks.0.right`). */
  issues: readonly ErrorIssue[];
  schemas: readonly EditorSchema[];
  emailTemplates: readonly string[];
}

export function useSetting({ step, onChange, issues }: SettingsProps) {
  const text = (key: string) => {
    const value = step.settings[key];
    return typeof value === "string" ? value : "";
  };
  const set = (key: string, value: string | string[]) => onChange({ settings: { ...step.settings, [key]: value } });
  const id = (key: string) => `${step.key}-${key}`;
  const error = (key: string) => messageAt(issues, key);
  return { text, set, id, error };
}

export function SchemaPicker({ props }: { props: SettingsProps }) {
  const { text, set, id, error } = useSetting(props);
  return <SchemaSelectField id={id("schema")} names={recordSchemaNames(props.schemas)} value={text("schema")} onChange={(name) => set("schema", name)} error={error("schema")} />;
}

export function fieldNamesOf(schemas: readonly EditorSchema[], name: string, options: { system?: boolean } = {}): string[] {
  const schema = schemas.find((candidate) => candidate.name === name);
  if (!schema) return [];
  return [...(options.system ? SYSTEM_FIELDS : []), ...(schema.kind === "auth" ? AUTH_BUILT_IN_FIELDS : []), ...schema.fields.map((field) => field.name)];
}

/** A setting written as a template over several lines (filters, bodies). */
export function TemplateAreaSetting({
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

export function FiltersInput({ props, required }: { props: SettingsProps; required?: boolean }) {
  const hint = required
    ? "One field=value per line; the first record matching all of them is updated."
    : "One field=value per line; records must match all of them. Empty: every record.";
  return <TemplateAreaSetting props={props} name="filters" label="Filters" hint={hint} rows={3} placeholder={"status=open\nauthor={{user.id}}"} />;
}

function quoted(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}

/** Says which filtered or sorted fields no index serves, while the collection is still small enough not to notice. */
export function IndexAdvice({ props }: { props: SettingsProps }) {
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
