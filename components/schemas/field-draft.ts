import type { ErrorIssue } from "@/lib/errors";
import { INDEX_CAPABLE_TYPES, UNIQUE_CAPABLE_TYPES, type FieldDefinition, type FieldType, type SchemaKind } from "@/lib/schemas/schema-definition";

/**
 * A field as the schema editor holds it: every option of every type as the text the inputs show,
 * so switching a field's type back and forth keeps what was typed. `toFieldDefinition` writes the
 * JSON the service validates, with only the options of the field's type.
 */
export interface FieldDraft {
  /** Stable identity in the list (names change while typing, positions when reordering). */
  key: string;
  /** The name the field was saved under, null for a field added in this edit. */
  savedName: string | null;
  name: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  indexed: boolean;
  /** "" = no default. Booleans: "true" / "false"; json: JSON text. */
  defaultText: string;
  min: string;
  max: string;
  pattern: string;
  /** Enum values, one per line. */
  values: string;
  target: string;
  many: boolean;
  component: string;
  repeatable: boolean;
  components: string[];
  /** File types, separated by commas. */
  accept: string;
  /** Largest upload in megabytes. */
  maxMegabytes: string;
}

let nextKey = 0;
/** Drafts made on the server (the page's props) and in the browser (fields added) use different prefixes, so keys never collide. */
function newKey(): string {
  nextKey += 1;
  return `${typeof window === "undefined" ? "s" : "c"}-field-${nextKey}`;
}

export function newFieldDraft(type: FieldType = "string"): FieldDraft {
  return {
    key: newKey(),
    savedName: null,
    name: "",
    type,
    required: false,
    unique: false,
    indexed: false,
    defaultText: "",
    min: "",
    max: "",
    pattern: "",
    values: "",
    target: "",
    many: false,
    component: "",
    repeatable: false,
    components: [],
    accept: "",
    maxMegabytes: "",
  };
}

const MEGABYTE = 1024 * 1024;

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

/** A saved field as the editor shows it. */
export function toFieldDraft(field: FieldDefinition): FieldDraft {
  const draft = newFieldDraft(field.type);
  draft.savedName = field.name;
  draft.name = field.name;
  draft.required = field.required === true;
  if ("unique" in field) draft.unique = field.unique === true;
  if ("indexed" in field) draft.indexed = field.indexed === true;
  if ("default" in field && field.default !== undefined) draft.defaultText = field.type === "json" ? JSON.stringify(field.default, null, 2) : text(field.default);
  if ("min" in field) draft.min = text(field.min);
  if ("max" in field) draft.max = text(field.max);
  if (field.type === "string") draft.pattern = field.pattern ?? "";
  if (field.type === "enum") draft.values = field.values.join("\n");
  if (field.type === "relation") {
    draft.target = field.target;
    draft.many = field.many === true;
  }
  if (field.type === "component") {
    draft.component = field.component;
    draft.repeatable = field.repeatable === true;
  }
  if (field.type === "dynamic_zone") draft.components = [...field.components];
  if (field.type === "file") {
    draft.accept = (field.accept ?? []).join(", ");
    draft.maxMegabytes = field.maxBytes === undefined ? "" : String(Math.round((field.maxBytes / MEGABYTE) * 1000) / 1000);
  }
  return draft;
}

/** Which options the editor offers for a field (the service's rules, so the form never offers what it refuses). */
export function fieldOptions(draft: Pick<FieldDraft, "type" | "many" | "repeatable">, kind: SchemaKind) {
  const { type } = draft;
  const lengthBounded = ["string", "text", "richtext", "email", "url"].includes(type);
  const valueBounded = type === "number" || type === "integer" || type === "datetime";
  const countBounded = (type === "relation" && draft.many) || (type === "component" && draft.repeatable) || type === "dynamic_zone";
  return {
    unique: kind !== "component" && UNIQUE_CAPABLE_TYPES.has(type) && !(type === "relation" && draft.many),
    indexed: kind !== "component" && INDEX_CAPABLE_TYPES.has(type) && !(type === "relation" && draft.many),
    default: !["relation", "component", "dynamic_zone", "file"].includes(type),
    bounds: lengthBounded ? ("length" as const) : valueBounded ? ("value" as const) : countBounded ? ("count" as const) : null,
    pattern: type === "string",
  };
}

type Built = { ok: true; field: Record<string, unknown> } | { ok: false; issues: ErrorIssue[] };

/**
 * The JSON definition of a draft, or the problems found before asking the server (a number that
 * is not one, JSON that does not parse), with paths relative to the field (`min`, `default`).
 */
export function toFieldDefinition(draft: FieldDraft, kind: SchemaKind): Built {
  const issues: ErrorIssue[] = [];
  const options = fieldOptions(draft, kind);
  const field: Record<string, unknown> = { name: draft.name.trim(), type: draft.type };
  if (draft.required) field.required = true;
  if (options.unique && draft.unique) field.unique = true;
  if (options.indexed && draft.indexed) field.indexed = true;

  const number = (value: string, path: string): number | undefined => {
    const trimmed = value.trim();
    if (trimmed === "") return undefined;
    const parsed = Number(trimmed);
    if (!Number.isFinite(parsed)) {
      issues.push({ path, message: "must be a number" });
      return undefined;
    }
    return parsed;
  };

  if (options.bounds === "value" && draft.type === "datetime") {
    if (draft.min.trim()) field.min = draft.min.trim();
    if (draft.max.trim()) field.max = draft.max.trim();
  } else if (options.bounds) {
    const min = number(draft.min, "min");
    const max = number(draft.max, "max");
    if (min !== undefined) field.min = min;
    if (max !== undefined) field.max = max;
  }
  if (options.pattern && draft.pattern !== "") field.pattern = draft.pattern;

  switch (draft.type) {
    case "enum":
      field.values = draft.values
        .split("\n")
        .map((value) => value.trim())
        .filter(Boolean);
      break;
    case "relation":
      field.target = draft.target;
      if (draft.many) field.many = true;
      break;
    case "component":
      field.component = draft.component;
      if (draft.repeatable) field.repeatable = true;
      break;
    case "dynamic_zone":
      field.components = draft.components;
      break;
    case "file": {
      const accept = draft.accept
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
      if (accept.length > 0) field.accept = accept;
      const megabytes = number(draft.maxMegabytes, "maxBytes");
      if (megabytes !== undefined) field.maxBytes = Math.max(1, Math.round(megabytes * MEGABYTE));
      break;
    }
    default:
      break;
  }

  if (options.default && draft.defaultText !== "") {
    switch (draft.type) {
      case "number":
      case "integer": {
        const value = number(draft.defaultText, "default");
        if (value !== undefined) field.default = value;
        break;
      }
      case "boolean":
        field.default = draft.defaultText === "true";
        break;
      case "json":
        try {
          field.default = JSON.parse(draft.defaultText) as unknown;
        } catch {
          issues.push({ path: "default", message: "must be valid JSON" });
        }
        break;
      default:
        field.default = draft.defaultText;
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, field };
}
