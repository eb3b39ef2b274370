"use client";

import type { ErrorIssue } from "@/lib/errors";
import { INPUT_FIELD_TYPES, INPUT_LIMITS, type InputFieldType, type InputLocation } from "@/lib/endpoints/endpoint-constants";
import { FieldError } from "@/components/ui/form-error";
import { Input, Select } from "@/components/ui/input";
import { capitalize, RemoveRowButton, RowListFooter } from "./form-controls";
import { inputIssuePath, newInputFieldDraft, type InputFieldDraft } from "./input-fields-draft";

const TYPE_LABELS: Record<InputFieldType, string> = {
  string: "Text",
  number: "Number",
  integer: "Whole number",
  boolean: "True/false",
  array: "List",
  object: "Object",
};

/** The table's columns; the last one holds the remove buttons. */
const COLUMNS = ["Name", "In", "Type", "Required", "Allowed values", "Min", "Max", "Pattern"] as const;

const BOUNDS = [
  ["min", "Minimum"],
  ["max", "Maximum"],
] as const;

const BOUND_HINTS: Partial<Record<InputFieldType, string>> = { string: "length", array: "items", number: "value", integer: "value" };

/** The messages the server reported for a row (`input.body.email` and `input.body.email.<option>`), each with its option. */
function rowMessages(issues: readonly ErrorIssue[], row: InputFieldDraft): string[] {
  if (row.name.trim() === "") return [];
  const path = inputIssuePath(row);
  return issues
    .filter((issue) => issue.path === path || issue.path.startsWith(`${path}.`))
    .map((issue) => {
      const option = issue.path.slice(path.length + 1);
      return option ? `${option}: ${issue.message}` : issue.message;
    });
}

/**
 * The endpoint's typed input as a small table: one row per query parameter or body field, with its
 * type, whether it is required, allowed values, bounds and pattern. A call that breaks it is answered
 * 400 before any step runs; no rows means no checks. Every control is labelled per row for screen
 * readers; rows are added and removed with buttons.
 */
export function InputFieldsTable({
  id,
  rows,
  onChange,
  issues,
  bodyAllowed,
}: {
  id: string;
  rows: readonly InputFieldDraft[];
  onChange: (rows: InputFieldDraft[]) => void;
  /** The save's issues; those under `input` are shown on their rows. */
  issues: readonly ErrorIssue[];
  /** False for GET and DELETE: their body is never checked. */
  bodyAllowed: boolean;
}) {
  const set = (key: string, patch: Partial<InputFieldDraft>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const whole = issues.filter((issue) => issue.path === "input" || issue.path === "input.query" || issue.path === "input.body").map((issue) => issue.message);
  const full = rows.length >= INPUT_LIMITS.maxFields * 2;
  return (
    <fieldset aria-describedby={`${id}-help`}>
      <legend className="text-sm font-medium text-slate-700">Typed input (optional)</legend>
      <p id={`${id}-help`} className="text-xs text-slate-500">
        Declare query parameters and body fields to have calls checked before any step runs: a call that breaks them is answered 400 with every problem listed. Query numbers and
        true/false arrive converted ({"{{query.page}}"} is a number). Min and max bound a number&apos;s value, a text&apos;s length and a list&apos;s number of items. Allowed
        values are comma-separated. Undeclared fields pass through unchecked.
        {!bodyAllowed && " This method has no body: body fields are not checked."}
      </p>
      {rows.length > 0 && (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption className="sr-only">Declared query parameters and body fields</caption>
            <thead className="text-xs text-slate-500">
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column} scope="col" className="py-1 pr-2 font-medium">
                    {column}
                  </th>
                ))}
                <th scope="col" className="py-1 font-medium">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const rowId = `${id}-${row.key}`;
                const messages = rowMessages(issues, row);
                const errorId = messages.length > 0 ? `${rowId}-error` : undefined;
                const label = (what: string) => `${what} of input field ${index + 1}${row.name ? ` (${row.name})` : ""}`;
                const bounded = BOUND_HINTS[row.type];
                const enumerable = row.type === "string" || row.type === "number" || row.type === "integer";
                return (
                  <tr key={row.key} className="align-top">
                    <td className="py-1 pr-2">
                      <Input
                        aria-label={label("Name")}
                        value={row.name}
                        onChange={(event) => set(row.key, { name: event.target.value })}
                        placeholder="email"
                        invalid={messages.length > 0}
                        aria-describedby={errorId}
                        className="font-mono"
                        autoComplete="off"
                      />
                      {errorId && <FieldError id={errorId} message={messages.join("; ")} />}
                    </td>
                    <td className="py-1 pr-2">
                      <Select aria-label={label("Where")} value={row.location} onChange={(event) => set(row.key, { location: event.target.value as InputLocation })}>
                        <option value="query">query</option>
                        <option value="body">body</option>
                      </Select>
                    </td>
                    <td className="py-1 pr-2">
                      <Select aria-label={label("Type")} value={row.type} onChange={(event) => set(row.key, { type: event.target.value as InputFieldType })}>
                        {INPUT_FIELD_TYPES.filter((type) => type !== "object" || row.location === "body").map((type) => (
                          <option key={type} value={type}>
                            {TYPE_LABELS[type]}
                          </option>
                        ))}
                      </Select>
                    </td>
                    <td className="py-1 pr-2 text-center">
                      <input
                        type="checkbox"
                        aria-label={label("Required")}
                        checked={row.required}
                        onChange={(event) => set(row.key, { required: event.target.checked })}
                        className="mt-2 size-4 rounded border-slate-300 accent-indigo-600"
                      />
                    </td>
                    <td className="py-1 pr-2">
                      <Input
                        aria-label={label("Allowed values")}
                        value={row.enumText}
                        onChange={(event) => set(row.key, { enumText: event.target.value })}
                        placeholder={enumerable ? "free, pro" : "—"}
                        disabled={!enumerable && row.enumText === ""}
                        autoComplete="off"
                      />
                    </td>
                    {BOUNDS.map(([bound, name]) => (
                      <td key={bound} className="py-1 pr-2">
                        <Input
                          aria-label={label(`${name} ${bounded ?? ""}`.trim())}
                          value={row[bound]}
                          onChange={(event) => set(row.key, { [bound]: event.target.value })}
                          inputMode="decimal"
                          disabled={!bounded && row[bound] === ""}
                          className="w-20"
                        />
                      </td>
                    ))}
                    <td className="py-1 pr-2">
                      <Input
                        aria-label={label("Pattern")}
                        value={row.pattern}
                        onChange={(event) => set(row.key, { pattern: event.target.value })}
                        placeholder={row.type === "string" ? "^[^@]+@[^@]+$" : "—"}
                        disabled={row.type !== "string" && row.pattern === ""}
                        className="font-mono"
                        autoComplete="off"
                      />
                    </td>
                    <td className="py-1">
                      <RemoveRowButton
                        label={`Remove input field ${index + 1}${row.name ? ` (${row.name})` : ""}`}
                        onClick={() => onChange(rows.filter((candidate) => candidate.key !== row.key))}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <RowListFooter
        id={id}
        error={whole.length > 0 ? whole.map(capitalize).join("; ") : undefined}
        addLabel="Add input field"
        disabled={full}
        onAdd={() => onChange([...rows, newInputFieldDraft(bodyAllowed ? "body" : "query")])}
      />
    </fieldset>
  );
}
