/**
 * What the editor and the save-time lint know about a value a placeholder may read: its kind and,
 * for objects, its fields. `unknown` means "not known before a run" (a transform's result, an
 * HTTP reply's body, a free-form request body): nothing below it is ever reported.
 */
export type ValueShape =
  | { readonly kind: "unknown"; readonly label?: string }
  | { readonly kind: "object"; readonly fields: ReadonlyMap<string, ValueShape>; readonly label?: string; readonly note?: string }
  | { readonly kind: "array"; readonly items: ValueShape; readonly label?: string }
  | { readonly kind: "text"; readonly label?: string }
  | { readonly kind: "number"; readonly label?: string }
  | { readonly kind: "boolean"; readonly label?: string }
  /** A value that is always null here; `note` says why (no signed-in user, a step without output). */
  | { readonly kind: "null"; readonly note: string; readonly label?: string };

export const UNKNOWN_SHAPE: ValueShape = { kind: "unknown" };
export const TEXT_SHAPE: ValueShape = { kind: "text" };
export const NUMBER_SHAPE: ValueShape = { kind: "number" };
export const BOOLEAN_SHAPE: ValueShape = { kind: "boolean" };

export function objectShape(fields: Iterable<readonly [string, ValueShape]>, extra: { label?: string; note?: string } = {}): ValueShape {
  return { kind: "object", fields: new Map(fields), ...extra };
}

const PLURALS: Readonly<Record<string, string>> = {
  object: "objects",
  text: "texts",
  number: "numbers",
  list: "lists",
  "true or false": "true or false values",
  empty: "empty values",
};

function pluralOf(description: string): string {
  if (description.endsWith("record")) return `${description}s`;
  return PLURALS[description] ?? `${description} values`;
}

/** A short description for a suggestion's hint or a warning: "tickets record", "list of tickets records", "text". */
export function describeShape(shape: ValueShape): string {
  if (shape.label) return shape.label;
  switch (shape.kind) {
    case "unknown":
      return "any value";
    case "object":
      return "object";
    case "array":
      return shape.items.kind === "unknown" ? "list" : `list of ${pluralOf(describeShape(shape.items))}`;
    case "text":
      return "text";
    case "number":
      return "number";
    case "boolean":
      return "true or false";
    case "null":
      return "empty";
  }
}

/** The values one segment further down a shape leads to, for suggestions. */
export function childShapes(shape: ValueShape): Array<readonly [string, ValueShape]> {
  switch (shape.kind) {
    case "object":
      return [...shape.fields];
    case "array":
      return [
        ["0", shape.items],
        ["length", NUMBER_SHAPE],
      ];
    case "text":
      return [["length", NUMBER_SHAPE]];
    default:
      return [];
  }
}
