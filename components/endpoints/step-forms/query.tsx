"use client";

import { FLOW_LIMITS } from "@/lib/flow/limits";
import { FieldError } from "@/components/ui/form-error";
import { FieldShell, TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { Checkbox } from "../form-controls";
import { fieldNamesOf, FiltersInput, IndexAdvice, SchemaPicker, useSetting, type SettingsProps } from "./shared";

export function QuerySettings(props: SettingsProps) {
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
