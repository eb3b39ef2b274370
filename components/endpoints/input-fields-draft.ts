import type { EndpointInputSpec, InputField, InputFieldType, InputLocation } from "@/lib/endpoints/endpoint-input";

/**
 * An endpoint's typed input as the editor's field table holds it: one row per declared field, its
 * bounds, enum and pattern as the text the inputs show. `toEndpointInputSpec` turns the rows into the
 * API's `input` once, and the server validates it (paths `input.<location>.<name>.<option>`).
 */
export interface InputFieldDraft {
  key: string;
  name: string;
  location: InputLocation;
  type: InputFieldType;
  required: boolean;
  /** Allowed values, comma-separated ("" = any). */
  enumText: string;
  min: string;
  max: string;
  pattern: string;
}

let counter = 0;
function newInputKey(): string {
  counter += 1;
  return `${typeof window === "undefined" ? "s" : "c"}-input-${counter}`;
}

export function newInputFieldDraft(location: InputLocation = "body"): InputFieldDraft {
  return { key: newInputKey(), name: "", location, type: "string", required: false, enumText: "", min: "", max: "", pattern: "" };
}

function toFieldDraft(name: string, location: InputLocation, field: InputField): InputFieldDraft {
  return {
    key: newInputKey(),
    name,
    location,
    type: field.type,
    required: field.required === true,
    enumText: (field.enum ?? []).map(String).join(", "),
    min: field.min === undefined ? "" : String(field.min),
    max: field.max === undefined ? "" : String(field.max),
    pattern: field.pattern ?? "",
  };
}

/** The saved `input` as rows: query parameters first, then body fields. */
export function toInputFieldDrafts(input: EndpointInputSpec | null | undefined): InputFieldDraft[] {
  if (!input) return [];
  return (["query", "body"] as const).flatMap((location) => Object.entries(input[location] ?? {}).map(([name, field]) => toFieldDraft(name, location, field)));
}

/** Text as a number when it is one; otherwise the text, so the server names the problem. */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== "" && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

function toField(row: InputFieldDraft): Record<string, unknown> {
  const field: Record<string, unknown> = { type: row.type };
  if (row.required) field.required = true;
  const values = row.enumText
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.length > 0) field.enum = row.type === "number" || row.type === "integer" ? values.map(numberOrText) : values;
  if (row.min.trim() !== "") field.min = numberOrText(row.min);
  if (row.max.trim() !== "") field.max = numberOrText(row.max);
  if (row.pattern !== "") field.pattern = row.pattern;
  return field;
}

/** The rows as the API's `input`; null when there are none (no checks). Rows without a name are left out. */
export function toEndpointInputSpec(rows: readonly InputFieldDraft[]): Record<string, Record<string, unknown>> | null {
  const named = rows.filter((row) => row.name.trim() !== "");
  if (named.length === 0) return null;
  const spec: Record<string, Record<string, unknown>> = {};
  for (const row of named) {
    const fields = (spec[row.location] ??= {});
    // Defined, not assigned: a row named __proto__ stays a field (the server refuses it by name) instead of replacing the prototype.
    Object.defineProperty(fields, row.name.trim(), { value: toField(row), enumerable: true, writable: true, configurable: true });
  }
  return spec;
}

/** Where the server reports a row's problems: `input.body.email` (then `.pattern`, `.max`…). */
export function inputIssuePath(row: Pick<InputFieldDraft, "location" | "name">): string {
  return `input.${row.location}.${row.name.trim()}`;
}

function sampleNumber(row: InputFieldDraft, values: readonly string[]): number {
  if (values.length > 0 && Number.isFinite(Number(values[0]))) return Number(values[0]);
  const min = row.min.trim() === "" ? null : Number(row.min);
  const max = row.max.trim() === "" ? null : Number(row.max);
  let value = min !== null && Number.isFinite(min) ? min : 1;
  if (max !== null && Number.isFinite(max) && value > max) value = max;
  return row.type === "integer" ? Math.ceil(value) : value;
}

function sampleText(row: InputFieldDraft, values: readonly string[]): string {
  if (values[0] !== undefined) return values[0];
  const name = row.name.toLowerCase();
  let text = name.includes("email") ? "ada@example.com" : name.includes("url") ? "https://example.com" : "sample";
  const min = Number(row.min);
  const max = Number(row.max);
  if (row.min.trim() !== "" && Number.isInteger(min) && text.length < min) text = text.padEnd(min, "x");
  if (row.max.trim() !== "" && Number.isInteger(max) && max >= 0 && text.length > max) text = text.slice(0, max);
  return text;
}

function sampleCount(row: InputFieldDraft): number {
  const min = Number(row.min);
  return row.min.trim() !== "" && Number.isInteger(min) && min > 1 ? Math.min(min, 10) : 1;
}

/** A plausible value of a row's type, within its enum and bounds, for the test run panel's sample. */
function sampleValue(row: InputFieldDraft): unknown {
  const values = row.enumText
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  switch (row.type) {
    case "string":
      return sampleText(row, values);
    case "number":
    case "integer":
      return sampleNumber(row, values);
    case "boolean":
      return true;
    case "array":
      return Array.from({ length: sampleCount(row) }, () => "sample");
    case "object":
      return {};
  }
}

/**
 * A sample request built from the declared fields: the body as pretty JSON ("" when no body field is
 * declared) and the query string ("" when no query parameter is), a list repeated once per item.
 */
export function sampleRequestOf(rows: readonly InputFieldDraft[]): { body: string; query: string } {
  const named = rows.filter((row) => row.name.trim() !== "");
  const bodyRows = named.filter((row) => row.location === "body");
  const body = bodyRows.length > 0 ? JSON.stringify(Object.fromEntries(bodyRows.map((row) => [row.name.trim(), sampleValue(row)])), null, 2) : "";
  const params = new URLSearchParams();
  for (const row of named.filter((candidate) => candidate.location === "query")) {
    const value = sampleValue(row);
    if (Array.isArray(value)) for (const item of value) params.append(row.name.trim(), String(item));
    else params.append(row.name.trim(), String(value));
  }
  return { body, query: params.toString() };
}
