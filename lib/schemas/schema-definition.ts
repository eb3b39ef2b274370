import { z } from "zod";
import { AppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { checkFieldValue, normalizeDateTime } from "./check-field-value";
import { checkPattern } from "./pattern-safety";
import { FIELD_LIMITS } from "./field-limits";
import { SYSTEM_FIELDS } from "@/lib/records/record-names";
import { fieldDefinitionSchema, schemaNameSchema, type FieldDefinition, type FieldType } from "./field-definition";

export { FIELD_LIMITS };
// The field shapes live in field-definition.ts (check-field-value.ts reads them); exported here too.
export { FIELD_NAME_PATTERN, FIELD_TYPES, SCHEMA_NAME_PATTERN, fieldDefinitionSchema, type FieldDefinition, type FieldOfType, type FieldType } from "./field-definition";

/**
 * Schema definitions (docs/DESIGN.md section 5): the JSON the management API reads and writes, the
 * dashboard form validates and the records service enforces. One definition is checked on its
 * own by `schemaDefinitionSchema`; checks that need the project's other schemas (relation
 * targets, components, nesting cycles) live in `validateSchemaSet`.
 */

export const SCHEMA_KINDS = ["collection", "auth", "component"] as const;
export type SchemaKind = (typeof SCHEMA_KINDS)[number];

/** Never usable as field names (compared case-insensitively): the system fields the server writes on every record, and `expand`. */
export const RESERVED_FIELD_NAMES = [...SYSTEM_FIELDS, "expand"] as const;
/** Built into every auth schema; `password` and `passwordHash` are never readable through the records API. */
export const AUTH_RESERVED_FIELD_NAMES = ["email", "password", "passwordHash", "emailVerified"] as const;

/** Field types whose values may be declared unique (backed by a real index in the customer database). */
export const UNIQUE_CAPABLE_TYPES: ReadonlySet<FieldType> = new Set(["string", "text", "number", "integer", "datetime", "email", "url", "enum", "relation"]);

function checkFieldOptions(field: FieldDefinition, kind: SchemaKind, addIssue: (path: string[], message: string) => void): void {
  const lowerName = field.name.toLowerCase();
  if ((RESERVED_FIELD_NAMES as readonly string[]).some((name) => name.toLowerCase() === lowerName)) {
    addIssue(["name"], `"${field.name}" is reserved for a system field`);
  }
  if (kind === "auth" && (AUTH_RESERVED_FIELD_NAMES as readonly string[]).some((name) => name.toLowerCase() === lowerName)) {
    addIssue(["name"], `"${field.name}" is built into auth schemas`);
  }

  if ("unique" in field && field.unique) {
    if (kind === "component") addIssue(["unique"], "fields of a component cannot be unique (components have no records of their own)");
    if (field.type === "relation" && field.many) addIssue(["unique"], "a relation to many records cannot be unique");
    if ("default" in field && field.default !== undefined) addIssue(["default"], "a unique field cannot have a default (every record would share it)");
    if ((field.type === "string" || field.type === "text" || field.type === "url") && field.max !== undefined && field.max > FIELD_LIMITS.uniqueTextLength) {
      addIssue(["max"], `unique fields hold at most ${FIELD_LIMITS.uniqueTextLength} characters`);
    }
  }

  if ("indexed" in field && field.indexed) {
    if (kind === "component") addIssue(["indexed"], "fields of a component cannot be indexed (components have no records of their own)");
    if (field.type === "relation" && field.many) addIssue(["indexed"], "a relation to many records cannot be indexed (it holds a list of ids)");
  }

  if ("min" in field && "max" in field && field.min !== undefined && field.max !== undefined) {
    if (field.type === "datetime") {
      const min = normalizeDateTime(field.min as string);
      const max = normalizeDateTime(field.max as string);
      if (min !== null && max !== null && min > max) addIssue(["max"], "must not be before min");
    } else if ((field.min as number) > (field.max as number)) {
      addIssue(["max"], "must be at least min");
    }
  }
  if (field.type === "datetime") {
    // min and max are datetimes; check their format without the min/max rules themselves.
    for (const key of ["min", "max"] as const) {
      const bound = field[key];
      if (bound !== undefined && normalizeDateTime(bound) === null) {
        addIssue([key], "must be an ISO 8601 date-time with a time zone, such as 2025-01-31T12:00:00Z");
      }
    }
  }
  if (field.type === "relation" && !field.many && (field.min !== undefined || field.max !== undefined)) {
    addIssue([field.min !== undefined ? "min" : "max"], "min and max count related records and need many: true");
  }
  if (field.type === "component" && !field.repeatable && (field.min !== undefined || field.max !== undefined)) {
    addIssue([field.min !== undefined ? "min" : "max"], "min and max count items and need repeatable: true");
  }
  if (field.type === "string" && field.pattern !== undefined) {
    const problem = checkPattern(field.pattern);
    if (problem) addIssue(["pattern"], problem);
  }
  if ("default" in field && field.default !== undefined) {
    const patternUsable = field.type !== "string" || field.pattern === undefined || checkPattern(field.pattern) === null;
    if (patternUsable) {
      const result = checkFieldValue(field, field.default, { coerce: false });
      if (!result.ok) addIssue(["default"], result.message);
    }
  }
}

export const schemaDefinitionSchema = z
  .strictObject({
    name: schemaNameSchema,
    kind: z.enum(SCHEMA_KINDS),
    fields: z.array(fieldDefinitionSchema).max(FIELD_LIMITS.fieldsPerSchema),
  })
  .superRefine((definition, ctx) => {
    const seen = new Map<string, number>();
    definition.fields.forEach((field, index) => {
      const addIssue = (path: string[], message: string) => ctx.addIssue({ code: "custom", path: ["fields", index, ...path], message });
      const lowerName = field.name.toLowerCase();
      const first = seen.get(lowerName);
      if (first !== undefined) addIssue(["name"], `repeats the field name of fields.${first}`);
      else seen.set(lowerName, index);
      checkFieldOptions(field, definition.kind, addIssue);
    });
  });

export type SchemaDefinition = z.output<typeof schemaDefinitionSchema>;

/** Parses one definition or throws AppError("validation_failed") with issue paths such as `fields.2.values`. */
export function parseSchemaDefinition(input: unknown): SchemaDefinition {
  const result = schemaDefinitionSchema.safeParse(input);
  if (!result.success) throw new AppError("validation_failed", "invalid schema definition", { issues: issuesFromZod(result.error) });
  return result.data;
}

/** Built-in fields of auth schemas, validated like declared fields. */
export const AUTH_BUILT_IN_FIELDS: readonly FieldDefinition[] = [
  { name: "email", type: "email", required: true, unique: true },
  { name: "emailVerified", type: "boolean", default: false },
];

/** The fields a record of this schema holds: the declared ones, and for auth schemas the built-ins first. */
export function effectiveFields(schema: Pick<SchemaDefinition, "kind" | "fields">): readonly FieldDefinition[] {
  return schema.kind === "auth" ? [...AUTH_BUILT_IN_FIELDS, ...schema.fields] : schema.fields;
}

/** The top-level fields that must be backed by a unique index. */
export function uniqueFieldNames(schema: Pick<SchemaDefinition, "kind" | "fields">): string[] {
  if (schema.kind === "component") return [];
  return effectiveFields(schema)
    .filter((field) => "unique" in field && field.unique === true)
    .map((field) => field.name);
}

/** The top-level fields that get an index of their own (`indexed`), for filters and sorts at scale. */
export function indexedFieldNames(schema: Pick<SchemaDefinition, "kind" | "fields">): string[] {
  if (schema.kind === "component") return [];
  return effectiveFields(schema)
    .filter((field) => "indexed" in field && field.indexed === true)
    .map((field) => field.name);
}

/** Field types that may be `indexed`. */
export const INDEX_CAPABLE_TYPES: ReadonlySet<FieldType> = new Set([...UNIQUE_CAPABLE_TYPES, "boolean"]);

export interface SchemaSetIssue extends ErrorIssue {
  /** The schema the issue is in; `path` is relative to it (`fields.2.target`). */
  schema: string;
}

/** The component names a field nests (component fields and dynamic zones). */
function nestedComponents(field: FieldDefinition): string[] {
  if (field.type === "component") return [field.component];
  if (field.type === "dynamic_zone") return field.components;
  return [];
}

/**
 * Checks that a project's definitions fit together: names are unique, relation targets exist and
 * hold records (not components), component and dynamic-zone references name components, and no
 * component nests itself (directly or through others). Answers every problem found; an empty
 * array means the set is consistent.
 */
export function validateSchemaSet(definitions: readonly SchemaDefinition[]): SchemaSetIssue[] {
  const issues: SchemaSetIssue[] = [];
  const byName = new Map<string, SchemaDefinition>();
  for (const definition of definitions) {
    if (byName.has(definition.name)) issues.push({ schema: definition.name, path: "name", message: `another schema is already named "${definition.name}"` });
    else byName.set(definition.name, definition);
  }

  for (const definition of definitions) {
    definition.fields.forEach((field, index) => {
      const at = (key: string) => `fields.${index}.${key}`;
      if (field.type === "relation") {
        const target = byName.get(field.target);
        if (!target) issues.push({ schema: definition.name, path: at("target"), message: `there is no schema named "${field.target}"` });
        else if (target.kind === "component") {
          issues.push({ schema: definition.name, path: at("target"), message: `"${field.target}" is a component; relations point at collection or auth schemas` });
        }
      }
      if (field.type === "component" || field.type === "dynamic_zone") {
        const key = field.type === "component" ? "component" : "components";
        nestedComponents(field).forEach((name, position) => {
          const path = field.type === "component" ? at(key) : `${at(key)}.${position}`;
          const component = byName.get(name);
          if (!component) issues.push({ schema: definition.name, path, message: `there is no component named "${name}"` });
          else if (component.kind !== "component") issues.push({ schema: definition.name, path, message: `"${name}" is a ${component.kind} schema, not a component` });
        });
      }
    });
  }

  // Nesting cycles: depth-first search over component → nested component edges.
  const state = new Map<string, "visiting" | "done">();
  const reported = new Set<string>();
  const visit = (name: string, trail: { schema: string; path: string }[]): void => {
    state.set(name, "visiting");
    const definition = byName.get(name);
    definition?.fields.forEach((field, index) => {
      nestedComponents(field).forEach((nested, position) => {
        const target = byName.get(nested);
        if (!target || target.kind !== "component") return;
        const path = field.type === "component" ? `fields.${index}.component` : `fields.${index}.components.${position}`;
        const edge = { schema: name, path };
        if (state.get(nested) === "visiting") {
          const start = trail.findIndex((step) => step.schema === nested);
          const cycle = [...trail.slice(start === -1 ? trail.length : start), edge];
          const names = [...cycle.map((step) => step.schema), nested].join(" → ");
          for (const step of cycle) {
            const key = `${step.schema}:${step.path}`;
            if (reported.has(key)) continue;
            reported.add(key);
            issues.push({ schema: step.schema, path: step.path, message: `components must not nest themselves: ${names}` });
          }
        } else if (!state.has(nested)) {
          visit(nested, [...trail, edge]);
        }
      });
    });
    state.set(name, "done");
  };
  for (const definition of definitions) {
    if (definition.kind === "component" && !state.has(definition.name)) visit(definition.name, []);
  }
  return issues;
}
