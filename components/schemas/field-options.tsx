"use client";

import type { ErrorIssue } from "@/lib/errors";
import type { SchemaKind } from "@/lib/schemas/schema-definition";
import { Input, Select } from "@/components/ui/input";
import { FieldError } from "@/components/ui/form-error";
import { Checkbox, FieldShell, Textarea, describedBy } from "@/components/endpoints/form-controls";
import { messageAt } from "@/components/endpoints/issues";
import { fieldOptions, type FieldDraft } from "./field-draft";

export interface SchemaSummary {
  name: string;
  kind: SchemaKind;
}

/** The index options of a field: what each checkbox says. */
const INDEX_OPTIONS = {
  unique: { label: "Unique", hint: "No two records may share a value; backed by an index in your database." },
  indexed: {
    label: "Indexed",
    hint: "Keeps filters and sorts on this field fast in large collections; building the index takes about a second per 100,000 records.",
  },
} as const;

/** The options of one field, those its type has: bounds, default, pattern, enum values, relation target, components, file rules. */
export function FieldOptions({
  draft,
  kind,
  schemas,
  issues,
  onChange,
}: {
  draft: FieldDraft;
  kind: SchemaKind;
  /** The project's other schemas (targets of relations, components). */
  schemas: readonly SchemaSummary[];
  /** Issues of this field, paths relative to it (`min`, `values.2`). */
  issues: readonly ErrorIssue[];
  onChange: (patch: Partial<FieldDraft>) => void;
}) {
  const options = fieldOptions(draft, kind);
  const id = (option: string) => `${draft.key}-${option}`;
  const error = (path: string) => messageAt(issues, path);
  const recordSchemas = schemas.filter((schema) => schema.kind !== "component");
  const components = schemas.filter((schema) => schema.kind === "component");

  const bounds = options.bounds && (
    <>
      <BoundInput draft={draft} which="min" id={id("min")} error={error("min")} onChange={onChange} />
      <BoundInput draft={draft} which="max" id={id("max")} error={error("max")} onChange={onChange} />
    </>
  );

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {draft.type === "enum" && (
        <FieldShell id={id("values")} label="Values" hint="One per line. Records may hold only these." error={error("values")} className="sm:col-span-2">
          <Textarea
            id={id("values")}
            rows={Math.min(8, Math.max(3, draft.values.split("\n").length + 1))}
            value={draft.values}
            onChange={(event) => onChange({ values: event.target.value })}
            invalid={Boolean(error("values"))}
            aria-describedby={describedBy(id("values"), true, error("values"))}
            placeholder={"open\nclosed"}
            mono
          />
        </FieldShell>
      )}

      {draft.type === "relation" && (
        <>
          <FieldShell id={id("target")} label="Related schema" error={error("target")} hint={recordSchemas.length === 0 ? "Create the schema to relate to first." : undefined}>
            <Select id={id("target")} value={draft.target} onChange={(event) => onChange({ target: event.target.value })} invalid={Boolean(error("target"))}>
              <option value="">Choose a schema…</option>
              {recordSchemas.map((schema) => (
                <option key={schema.name} value={schema.name}>
                  {schema.name}
                  {schema.kind === "auth" ? " (auth)" : ""}
                </option>
              ))}
              {draft.target && !recordSchemas.some((schema) => schema.name === draft.target) && <option value={draft.target}>{draft.target}</option>}
            </Select>
          </FieldShell>
          <div className="flex items-end pb-2">
            <Checkbox
              id={id("many")}
              label="Many records"
              hint="A list of related records instead of one."
              checked={draft.many}
              onChange={(many) => onChange({ many, unique: many ? false : draft.unique, indexed: many ? false : draft.indexed })}
            />
          </div>
        </>
      )}

      {draft.type === "component" && (
        <>
          <FieldShell id={id("component")} label="Component" error={error("component")} hint={components.length === 0 ? "Create a schema of kind Component first." : undefined}>
            <Select id={id("component")} value={draft.component} onChange={(event) => onChange({ component: event.target.value })} invalid={Boolean(error("component"))}>
              <option value="">Choose a component…</option>
              {components.map((schema) => (
                <option key={schema.name} value={schema.name}>
                  {schema.name}
                </option>
              ))}
              {draft.component && !components.some((schema) => schema.name === draft.component) && <option value={draft.component}>{draft.component}</option>}
            </Select>
          </FieldShell>
          <div className="flex items-end pb-2">
            <Checkbox
              id={id("repeatable")}
              label="Repeatable"
              hint="An ordered list of items instead of one."
              checked={draft.repeatable}
              onChange={(repeatable) => onChange({ repeatable })}
            />
          </div>
        </>
      )}

      {draft.type === "dynamic_zone" && (
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-slate-700">Allowed components</legend>
          {components.length === 0 ? (
            <p className="mt-1 text-sm text-slate-500">This project has no components yet. Create a schema of kind Component first.</p>
          ) : (
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {components.map((schema) => (
                <Checkbox
                  key={schema.name}
                  id={id(`component-${schema.name}`)}
                  label={<span className="font-mono text-xs">{schema.name}</span>}
                  checked={draft.components.includes(schema.name)}
                  onChange={(on) => onChange({ components: on ? [...draft.components, schema.name] : draft.components.filter((name) => name !== schema.name) })}
                />
              ))}
            </div>
          )}
          <FieldError id={id("components-error")} message={error("components")} />
        </fieldset>
      )}

      {draft.type === "file" && (
        <>
          <FieldShell
            id={id("accept")}
            label="Accepted types"
            hint="MIME types or extensions, separated by commas: image/*, application/pdf, .pdf. Empty: any."
            error={error("accept")}
          >
            <Input
              id={id("accept")}
              value={draft.accept}
              onChange={(event) => onChange({ accept: event.target.value })}
              placeholder="image/*, .pdf"
              invalid={Boolean(error("accept"))}
            />
          </FieldShell>
          <FieldShell id={id("maxMegabytes")} label="Largest file (MB)" hint="Empty: the platform's limit." error={error("maxBytes")}>
            <Input
              id={id("maxMegabytes")}
              inputMode="decimal"
              value={draft.maxMegabytes}
              onChange={(event) => onChange({ maxMegabytes: event.target.value })}
              invalid={Boolean(error("maxBytes"))}
            />
          </FieldShell>
        </>
      )}

      {options.pattern && (
        <FieldShell
          id={id("pattern")}
          label="Pattern"
          hint="A regular expression the value must match; add ^ and $ to match the whole value."
          error={error("pattern")}
          className="sm:col-span-2"
        >
          <Input
            id={id("pattern")}
            value={draft.pattern}
            onChange={(event) => onChange({ pattern: event.target.value })}
            placeholder="^[A-Z]{3}-\d+$"
            className="font-mono"
            invalid={Boolean(error("pattern"))}
          />
        </FieldShell>
      )}

      {bounds}

      {options.default && <DefaultInput draft={draft} id={id("default")} error={error("default")} onChange={onChange} />}

      {(["unique", "indexed"] as const)
        .filter((option) => options[option])
        .map((option) => (
          <div key={option} className="flex items-end pb-2 sm:col-span-2">
            <div>
              <Checkbox
                id={id(option)}
                label={INDEX_OPTIONS[option].label}
                hint={INDEX_OPTIONS[option].hint}
                checked={draft[option]}
                onChange={(on) => onChange({ [option]: on })}
              />
              <FieldError id={id(`${option}-error`)} message={error(option)} />
            </div>
          </div>
        ))}
    </div>
  );
}

function BoundInput({
  draft,
  which,
  id,
  error,
  onChange,
}: {
  draft: FieldDraft;
  which: "min" | "max";
  id: string;
  error?: string;
  onChange: (patch: Partial<FieldDraft>) => void;
}) {
  const options = fieldOptions(draft, "collection");
  const isDate = draft.type === "datetime";
  const label =
    options.bounds === "length"
      ? which === "min"
        ? "Minimum length"
        : "Maximum length"
      : options.bounds === "count"
        ? which === "min"
          ? "Minimum items"
          : "Maximum items"
        : isDate
          ? which === "min"
            ? "Earliest"
            : "Latest"
          : which === "min"
            ? "Minimum"
            : "Maximum";
  return (
    <FieldShell id={id} label={label} error={error} hint={isDate ? "ISO 8601, such as 2025-01-31T12:00:00Z" : undefined}>
      <Input
        id={id}
        inputMode={isDate ? undefined : "decimal"}
        value={draft[which]}
        onChange={(event) => onChange({ [which]: event.target.value })}
        placeholder={isDate ? "2025-01-01T00:00:00Z" : "None"}
        invalid={Boolean(error)}
      />
    </FieldShell>
  );
}

function DefaultInput({ draft, id, error, onChange }: { draft: FieldDraft; id: string; error?: string; onChange: (patch: Partial<FieldDraft>) => void }) {
  const set = (defaultText: string) => onChange({ defaultText });
  if (draft.type === "boolean") {
    return (
      <FieldShell id={id} label="Default" error={error}>
        <Select id={id} value={draft.defaultText} onChange={(event) => set(event.target.value)} invalid={Boolean(error)}>
          <option value="">No default</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </Select>
      </FieldShell>
    );
  }
  if (draft.type === "enum") {
    const values = draft.values
      .split("\n")
      .map((value) => value.trim())
      .filter(Boolean);
    return (
      <FieldShell id={id} label="Default" error={error}>
        <Select id={id} value={draft.defaultText} onChange={(event) => set(event.target.value)} invalid={Boolean(error)}>
          <option value="">No default</option>
          {values.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
          {draft.defaultText && !values.includes(draft.defaultText) && <option value={draft.defaultText}>{draft.defaultText}</option>}
        </Select>
      </FieldShell>
    );
  }
  if (draft.type === "json") {
    return (
      <FieldShell id={id} label="Default (JSON)" error={error} hint="Empty: no default." className="sm:col-span-2">
        <Textarea id={id} rows={3} value={draft.defaultText} onChange={(event) => set(event.target.value)} invalid={Boolean(error)} mono placeholder='{"tags": []}' />
      </FieldShell>
    );
  }
  const numeric = draft.type === "number" || draft.type === "integer";
  return (
    <FieldShell id={id} label="Default" error={error} hint={draft.unique ? "Unique fields cannot have a default." : "Empty: no default."}>
      <Input id={id} inputMode={numeric ? "decimal" : undefined} value={draft.defaultText} onChange={(event) => set(event.target.value)} invalid={Boolean(error)} />
    </FieldShell>
  );
}
