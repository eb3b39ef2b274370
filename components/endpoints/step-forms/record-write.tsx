"use client";

import { issuesUnder } from "../issues";
import { KeyValueRows } from "../key-value-rows";
import { fieldNamesOf, FiltersInput, IndexAdvice, SchemaPicker, useSetting, type SettingsProps } from "./shared";

/** The settings of create and update steps. */
export function RecordWriteSettings(props: SettingsProps) {
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
