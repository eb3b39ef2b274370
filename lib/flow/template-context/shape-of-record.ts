import { AUTH_BUILT_IN_FIELDS } from "@/lib/flow/steps/shared/project-checks";
import { SYSTEM_FIELDS } from "@/lib/records/record-names";
import { BOOLEAN_SHAPE, objectShape, TEXT_SHAPE, UNKNOWN_SHAPE, type ValueShape } from "./value-shape";

/** A schema as the template context needs it: the editor's schema list and the save-time checks' summaries both fit. */
export interface TemplateContextSchema {
  readonly name: string;
  readonly kind: string;
  readonly fields: readonly { readonly name: string; readonly type: string }[];
}

const TEXT_TYPES: ReadonlySet<string> = new Set(["string", "text", "richtext", "datetime", "email", "url", "enum"]);

// Relations hold one id or a list of ids, components and dynamic zones nested data, files ids: their
// exact form depends on options the summary does not carry, so nothing below them is checked.
function shapeOfFieldType(type: string): ValueShape {
  if (TEXT_TYPES.has(type)) return { kind: "text", label: type === "string" ? "text" : type };
  if (type === "number" || type === "integer") return { kind: "number", label: type };
  if (type === "boolean") return BOOLEAN_SHAPE;
  return { kind: "unknown", label: type };
}

/**
 * A stored record of a schema as data steps answer it: the system fields, an auth schema's built-in
 * fields, the schema's own fields, and `expand.<field>` for the relations a query expands.
 */
export function shapeOfRecord(schema: TemplateContextSchema, options: { expand?: readonly string[]; extra?: ReadonlyArray<readonly [string, ValueShape]> } = {}): ValueShape {
  const fields: Array<readonly [string, ValueShape]> = [];
  for (const name of SYSTEM_FIELDS) fields.push([name, name === "id" ? TEXT_SHAPE : { kind: "text", label: "datetime" }]);
  if (schema.kind === "auth") for (const name of AUTH_BUILT_IN_FIELDS) fields.push([name, name === "email" ? { kind: "text", label: "email" } : BOOLEAN_SHAPE]);
  for (const field of schema.fields) fields.push([field.name, shapeOfFieldType(field.type)]);
  const expand = options.expand ?? [];
  if (expand.length > 0)
    fields.push([
      "expand",
      objectShape(
        expand.map((name) => [name, UNKNOWN_SHAPE] as const),
        { label: "expanded relations" },
      ),
    ]);
  fields.push(...(options.extra ?? []));
  return objectShape(fields, { label: `${schema.name} record` });
}
