import type { ErrorIssue } from "@/lib/errors";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";

/**
 * The record form's model (browser-safe, no React): what each control holds, built from a record's
 * JSON (`recordToDraft`) and written back as the JSON the records service validates
 * (`draftToRecord`), so the form and the "Edit as JSON" box switch with the same values. Issues of
 * the service come with index paths (`blocks.1.heading`); `controlPathOf` turns them into the
 * paths of the controls, which name list items by a stable key (`blocks.i1.heading`), so an issue
 * stays at its item when items are moved.
 */

/** The `__component` key of a dynamic-zone item (lib/records-service/validate-record.ts). */
export const ITEM_COMPONENT_KEY = "__component";

/** One item of a component field or dynamic zone: its own fields' drafts. */
export interface GroupDraft {
  /** Stable identity among its siblings (React key and control paths): `i<index>` when loaded, `n<counter>` when added. */
  key: string;
  /** The component whose fields the item holds. */
  component: string;
  values: DraftValues;
}

/** What one control holds. */
export type DraftValue =
  /** Text-like inputs, numbers and enums as typed, date-times as the `datetime-local` text (UTC), JSON as its text. */
  | { kind: "text"; text: string }
  | { kind: "boolean"; checked: boolean }
  /** A relation: at most one id unless the field is `many`. */
  | { kind: "relation"; ids: string[] }
  /** A file field: the stored file's id (uploads travel apart, see the form). */
  | { kind: "file"; fileId: string | null }
  /** A component field that is not repeatable: absent (null) or one item. */
  | { kind: "component"; item: GroupDraft | null }
  /** A repeatable component field or a dynamic zone. */
  | { kind: "list"; items: GroupDraft[] };

export type DraftValues = Record<string, DraftValue>;

/** Finds a component schema by name (the project's schemas). */
export type ComponentLookup = (name: string) => SchemaDefinition | undefined;

export function componentLookup(schemas: readonly SchemaDefinition[]): ComponentLookup {
  const components = new Map(schemas.filter((schema) => schema.kind === "component").map((schema) => [schema.name, schema]));
  return (name) => components.get(name);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `2025-01-31T12:00:00.000Z` → `2025-01-31T12:00:00` (what a datetime-local input shows, read as UTC). */
export function isoToDateTimeInput(value: unknown): string {
  if (typeof value !== "string" || value === "") return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const iso = date.toISOString();
  return iso.endsWith(".000Z") ? iso.slice(0, 19) : iso.slice(0, 23);
}

/** The datetime-local text (UTC) as the ISO date-time the service stores; text that is no such value goes as typed, for the service to name. */
export function dateTimeInputToIso(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(trimmed) ? `${trimmed}Z` : trimmed;
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : String(value);
}

/** The draft of one field's value as a record holds it (null, absent or malformed values give an empty control). */
export function valueToDraft(field: FieldDefinition, value: unknown, lookup: ComponentLookup): DraftValue {
  switch (field.type) {
    case "boolean":
      return { kind: "boolean", checked: value === true };
    case "datetime":
      return { kind: "text", text: isoToDateTimeInput(value) };
    case "json":
      return { kind: "text", text: value === null || value === undefined ? "" : JSON.stringify(value, null, 2) };
    case "relation": {
      const ids = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === "string" && id !== "");
      return { kind: "relation", ids: field.many ? ids : ids.slice(0, 1) };
    }
    case "file":
      return { kind: "file", fileId: typeof value === "string" && value !== "" ? value : null };
    case "component":
      if (field.repeatable) {
        const items = Array.isArray(value) ? value : [];
        return { kind: "list", items: items.filter(isObject).map((item, index) => groupToDraft(`i${index}`, field.component, item, lookup)) };
      }
      return { kind: "component", item: isObject(value) ? groupToDraft("i0", field.component, value, lookup) : null };
    case "dynamic_zone": {
      const items = Array.isArray(value) ? value : [];
      return {
        kind: "list",
        items: items.filter(isObject).map((item, index) => groupToDraft(`i${index}`, typeof item[ITEM_COMPONENT_KEY] === "string" ? item[ITEM_COMPONENT_KEY] : "", item, lookup)),
      };
    }
    default:
      return { kind: "text", text: textOf(value) };
  }
}

function groupToDraft(key: string, component: string, value: Record<string, unknown>, lookup: ComponentLookup): GroupDraft {
  return { key, component, values: fieldsToDraft(lookup(component)?.fields ?? [], value, lookup) };
}

function fieldsToDraft(fields: readonly FieldDefinition[], values: Record<string, unknown>, lookup: ComponentLookup): DraftValues {
  return Object.fromEntries(fields.map((field) => [field.name, valueToDraft(field, Object.hasOwn(values, field.name) ? values[field.name] : undefined, lookup)]));
}

/** A new, empty item of a component (its fields' defaults filled in, as the service would on create). */
export function newGroupDraft(key: string, component: string, lookup: ComponentLookup): GroupDraft {
  const fields = lookup(component)?.fields ?? [];
  const defaults = Object.fromEntries(fields.flatMap((field) => ("default" in field && field.default !== undefined ? [[field.name, field.default]] : [])));
  return groupToDraft(key, component, defaults, lookup);
}

/** The drafts of every field of the schema, from a record's values (or `{}` with the fields' defaults for a new record). */
export function recordToDraft(schema: Pick<SchemaDefinition, "kind" | "fields">, record: Record<string, unknown>, lookup: ComponentLookup): DraftValues {
  return fieldsToDraft(effectiveFields(schema), record, lookup);
}

/** A new record's starting drafts: each field's default, else empty. */
export function newRecordDraft(schema: Pick<SchemaDefinition, "kind" | "fields">, lookup: ComponentLookup): DraftValues {
  const defaults = Object.fromEntries(
    effectiveFields(schema).flatMap((field) => ("default" in field && field.default !== undefined ? [[field.name, structuredClone(field.default)]] : [])),
  );
  return recordToDraft(schema, defaults, lookup);
}

const NUMERIC_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** What writing drafts back gathers on the way: problems, and the value paths of the file controls left out. */
interface DraftWalk {
  issues: ErrorIssue[];
  lookup: ComponentLookup;
  /** Control paths of file fields left out of the JSON (a chosen file is sent for them instead). */
  skip: ReadonlySet<string>;
  /** Each left-out control path found, with its value path (`blocks.i1.image` → `blocks.0.image`). */
  skipped: Record<string, string>;
}

/** `path` is the value path (list positions), `control` the control path (list items by key). */
function draftToValue(field: FieldDefinition, draft: DraftValue | undefined, path: string, control: string, walk: DraftWalk): unknown {
  if (!draft) return undefined;
  switch (draft.kind) {
    case "boolean":
      return draft.checked;
    case "relation":
      return field.type === "relation" && field.many ? [...draft.ids] : (draft.ids[0] ?? null);
    case "file":
      return draft.fileId;
    case "component":
      return draft.item ? groupToValue(draft.item, false, path, control, walk) : null;
    case "list":
      return draft.items.map((item, index) => groupToValue(item, field.type === "dynamic_zone", `${path}.${index}`, `${control}.${item.key}`, walk));
    case "text":
      return textToValue(field, draft.text, path, walk.issues);
  }
}

function textToValue(field: FieldDefinition, text: string, path: string, issues: ErrorIssue[]): unknown {
  switch (field.type) {
    case "number":
    case "integer": {
      const trimmed = text.trim();
      if (trimmed === "") return null;
      // Text that is no number goes as typed: the service names the problem at the field.
      return NUMERIC_TEXT.test(trimmed) ? Number(trimmed) : trimmed;
    }
    case "datetime":
      return dateTimeInputToIso(text);
    case "enum":
      return text === "" ? null : text;
    case "email":
    case "url":
      return text.trim() === "" ? null : text;
    case "json": {
      if (text.trim() === "") return null;
      const parsed = parseJsonText(text);
      if (!parsed.ok) {
        issues.push({ path, message: parsed.message });
        return undefined;
      }
      return parsed.value;
    }
    default:
      return text;
  }
}

function groupToValue(item: GroupDraft, named: boolean, path: string, control: string, walk: DraftWalk): Record<string, unknown> {
  const fields = walk.lookup(item.component)?.fields ?? [];
  const values = fieldsToValue(fields, item.values, path, control, walk);
  return named ? { [ITEM_COMPONENT_KEY]: item.component, ...values } : values;
}

function fieldsToValue(fields: readonly FieldDefinition[], drafts: DraftValues, path: string, control: string, walk: DraftWalk): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const field of fields) {
    const fieldPath = path ? `${path}.${field.name}` : field.name;
    const fieldControl = control ? `${control}.${field.name}` : field.name;
    if (walk.skip.has(fieldControl) && drafts[field.name]?.kind === "file") {
      walk.skipped[fieldControl] = fieldPath;
      continue;
    }
    const value = draftToValue(field, drafts[field.name], fieldPath, fieldControl, walk);
    if (value !== undefined) output[field.name] = value;
  }
  return output;
}

export interface DraftToRecordResult {
  /** The JSON object to send. */
  record: Record<string, unknown>;
  /** What cannot be sent as typed (JSON that does not parse), with the controls' index paths. */
  issues: ErrorIssue[];
  /** The file controls left out (`skip`) that the drafts hold, each with its value path: where its chosen file is sent. */
  skipped: Record<string, string>;
}

/**
 * The record JSON of the drafts, every field of the schema given (on update too: the form shows
 * them all). `skip` leaves file controls out by control path (a field whose new file is sent as an
 * upload under its value path, inside components and dynamic-zone entries too); a skipped control
 * whose entry was removed is simply not there.
 */
export function draftToRecord(
  schema: Pick<SchemaDefinition, "kind" | "fields">,
  drafts: DraftValues,
  lookup: ComponentLookup,
  skip: ReadonlySet<string> = new Set(),
): DraftToRecordResult {
  const walk: DraftWalk = { issues: [], lookup, skip, skipped: {} };
  const record = fieldsToValue(effectiveFields(schema), drafts, "", "", walk);
  return { record, issues: walk.issues, skipped: walk.skipped };
}

/** JSON text as a value, or why it is not JSON (as the JSON control says it while typing). */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `is not valid JSON (${error instanceof SyntaxError ? error.message : "cannot be read"})` };
  }
}

/**
 * Reads the "Edit as JSON" text back into drafts. Keys that are no field of the schema are refused
 * here rather than dropped, so switching back to the form never loses what was typed.
 */
export function jsonTextToDraft(
  schema: Pick<SchemaDefinition, "kind" | "fields">,
  text: string,
  lookup: ComponentLookup,
): { ok: true; drafts: DraftValues } | { ok: false; message: string } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, message: `The JSON ${parsed.message}.` };
  if (!isObject(parsed.value)) return { ok: false, message: "The JSON must be an object of field values." };
  const names = new Set(effectiveFields(schema).map((field) => field.name));
  const unknown = Object.keys(parsed.value).filter((key) => !names.has(key));
  if (unknown.length > 0) {
    return { ok: false, message: `The form has no field ${unknown.map((key) => `"${key}"`).join(", ")}; fix the JSON or save it from here.` };
  }
  return { ok: true, drafts: recordToDraft(schema, parsed.value, lookup) };
}

/**
 * The path of the control an issue belongs to: list indexes become the items' keys as they were
 * when the form was sent (`blocks.1.heading` → `blocks.i1.heading`), a path into a relation list or
 * a JSON value stops at its field (`tags.2` → `tags`, with `rest` = `2`). An issue of a key the
 * form has no control for (an unknown field) answers the empty path: the form as a whole.
 */
export function controlPathOf(schema: Pick<SchemaDefinition, "kind" | "fields">, drafts: DraftValues, issuePath: string, lookup: ComponentLookup): { path: string; rest: string } {
  const segments = issuePath === "" ? [] : issuePath.split(".");
  let fields: readonly FieldDefinition[] = effectiveFields(schema);
  let values: DraftValues = drafts;
  const resolved: string[] = [];
  let index = 0;
  while (index < segments.length) {
    const field = fields.find((candidate) => candidate.name === segments[index]);
    const draft = field ? values[field.name] : undefined;
    if (!field || !draft) break;
    resolved.push(field.name);
    index += 1;
    let item: GroupDraft | null | undefined;
    if (draft.kind === "list") {
      const position = Number(segments[index]);
      item = Number.isInteger(position) ? draft.items[position] : undefined;
      if (!item) break;
      resolved.push(item.key);
      index += 1;
    } else if (draft.kind === "component") {
      item = draft.item;
    }
    if (!item) break;
    const component = lookup(item.component);
    // `__component` of an item is its component choice: the item's own control.
    if (!component || segments[index] === ITEM_COMPONENT_KEY) {
      if (segments[index] === ITEM_COMPONENT_KEY) index += 1;
      break;
    }
    fields = component.fields;
    values = item.values;
  }
  return { path: resolved.join("."), rest: segments.slice(index).join(".") };
}

/** The issues of one submission, grouped by the control they belong to (see controlPathOf). */
export function issuesByControl(
  schema: Pick<SchemaDefinition, "kind" | "fields">,
  drafts: DraftValues,
  issues: readonly ErrorIssue[],
  lookup: ComponentLookup,
): Map<string, string[]> {
  const byControl = new Map<string, string[]>();
  for (const issue of issues) {
    const { path, rest } = controlPathOf(schema, drafts, issue.path, lookup);
    // A relation list's issue names the missing id itself; elsewhere the rest says where inside the value.
    const inRelationList = rest !== "" && /^\d+$/.test(rest);
    const message = rest && !inRelationList ? `${rest}: ${issue.message}` : issue.message;
    const list = byControl.get(path) ?? [];
    list.push(capitalize(message));
    byControl.set(path, list);
  }
  return byControl;
}

function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** The DOM id of a control of the form `formId` at a control path. */
export function controlId(formId: string, path: string): string {
  return `${formId}-${path === "" ? "form" : path.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}
