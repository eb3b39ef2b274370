"use client";

import type { ErrorIssue } from "@/lib/errors";
import { FieldError } from "@/components/ui/form-error";
import { Input, NameSelect } from "@/components/ui/input";
import { RemoveRowButton, RowListFooter } from "./form-controls";
import { newRow, type RowDraft } from "./endpoint-draft";
import { messageAt } from "./issues";
import { TemplateInput } from "./template-field";

/**
 * Name → template rows: response and request headers, record field values. Errors come from the
 * issues at `<name>` (the service reports `headers.X-Id`); when `nameOptions` is given (the fields
 * of a schema) the name is chosen from them. Values are template fields (autocomplete and
 * placeholder warnings inside a flow editor).
 */
export function KeyValueRows({
  id,
  legend,
  rows,
  onChange,
  issues,
  nameLabel,
  valueLabel,
  namePlaceholder,
  valuePlaceholder,
  nameOptions,
  addLabel,
  hint,
}: {
  id: string;
  legend: string;
  rows: readonly RowDraft[];
  onChange: (rows: RowDraft[]) => void;
  /** Issues below the setting, paths relative to it (`X-Id`, or "" for the whole map). */
  issues: readonly ErrorIssue[];
  nameLabel: string;
  valueLabel: string;
  namePlaceholder?: string;
  valuePlaceholder?: string;
  nameOptions?: readonly string[];
  addLabel: string;
  hint?: string;
}) {
  const whole = issues.find((issue) => issue.path === "")?.message;
  const set = (key: string, patch: Partial<RowDraft>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      {rows.length > 0 && (
        <div className="mt-2 space-y-2">
          {rows.map((row, index) => {
            const error = row.name ? messageAt(issues, row.name) : undefined;
            const rowId = `${id}-${row.key}`;
            return (
              <div key={row.key}>
                <div className="flex items-start gap-2">
                  <div className="w-2/5 shrink-0">
                    <label htmlFor={`${rowId}-name`} className="sr-only">
                      {`${nameLabel} ${index + 1}`}
                    </label>
                    {nameOptions ? (
                      <NameSelect
                        id={`${rowId}-name`}
                        names={nameOptions}
                        emptyLabel="Choose a field…"
                        value={row.name}
                        onChange={(event) => set(row.key, { name: event.target.value })}
                        invalid={Boolean(error)}
                        aria-describedby={error ? `${rowId}-error` : undefined}
                        className="font-mono"
                      />
                    ) : (
                      <Input
                        id={`${rowId}-name`}
                        value={row.name}
                        onChange={(event) => set(row.key, { name: event.target.value })}
                        placeholder={namePlaceholder}
                        invalid={Boolean(error)}
                        aria-describedby={error ? `${rowId}-error` : undefined}
                        className="font-mono"
                        autoComplete="off"
                      />
                    )}
                  </div>
                  <div className="min-w-0 flex-1">
                    <label htmlFor={`${rowId}-value`} className="sr-only">
                      {`${valueLabel} ${index + 1}`}
                    </label>
                    <TemplateInput
                      id={`${rowId}-value`}
                      value={row.value}
                      onValueChange={(value) => set(row.key, { value })}
                      placeholder={valuePlaceholder}
                      className="font-mono"
                    />
                  </div>
                  <div className="pt-1">
                    <RemoveRowButton label={`Remove ${nameLabel.toLowerCase()} ${index + 1}`} onClick={() => onChange(rows.filter((candidate) => candidate.key !== row.key))} />
                  </div>
                </div>
                <FieldError id={`${rowId}-error`} message={error} />
              </div>
            );
          })}
        </div>
      )}
      <RowListFooter id={id} error={whole} addLabel={addLabel} onAdd={() => onChange([...rows, newRow()])} />
    </fieldset>
  );
}
