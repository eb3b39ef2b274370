import { PASSWORD_RULES } from "@/lib/auth/password";
import { COMPONENT_KEY } from "@/lib/records-service/validate-record";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { schemaRef, type JsonSchema } from "./openapi-document";

/** Component names of the JSON Schemas of one collection or auth schema's records. */
export const recordSchemaName = (schema: string) => `${schema}.record`;
export const createInputSchemaName = (schema: string) => `${schema}.create`;
export const updateInputSchemaName = (schema: string) => `${schema}.update`;
export const componentSchemaName = (component: string) => `component.${component}`;

type Direction = "output" | "input";

export const REGISTER_EMAIL: JsonSchema = { type: "string", format: "email", maxLength: 320 };
export const REGISTER_PASSWORD: JsonSchema = { type: "string", minLength: PASSWORD_RULES.minLength, maxLength: PASSWORD_RULES.maxLength };

/** One field's value as JSON Schema 2020-12: the value the records API answers or accepts. */
function describeFieldValue(field: FieldDefinition): JsonSchema {
  const bounds = (minKey: string, maxKey: string, min?: number | string, max?: number | string): JsonSchema => ({
    ...(min !== undefined ? { [minKey]: min } : {}),
    ...(max !== undefined ? { [maxKey]: max } : {}),
  });
  const withDefault = (schema: JsonSchema): JsonSchema => ("default" in field && field.default !== undefined ? { ...schema, default: field.default } : schema);
  switch (field.type) {
    case "string":
      return withDefault({ type: "string", ...bounds("minLength", "maxLength", field.min, field.max), ...(field.pattern ? { pattern: field.pattern } : {}) });
    case "text":
      return withDefault({ type: "string", ...bounds("minLength", "maxLength", field.min, field.max) });
    case "richtext":
      return withDefault({ type: "string", description: "Rich text (HTML).", ...bounds("minLength", "maxLength", field.min, field.max) });
    case "number":
      return withDefault({ type: "number", ...bounds("minimum", "maximum", field.min, field.max) });
    case "integer":
      return withDefault({ type: "integer", ...bounds("minimum", "maximum", field.min, field.max) });
    case "boolean":
      return withDefault({ type: "boolean" });
    case "datetime":
      return withDefault({
        type: "string",
        format: "date-time",
        ...(field.min !== undefined || field.max !== undefined ? { description: `Between ${field.min ?? "any time"} and ${field.max ?? "any time"}.` } : {}),
      });
    case "email":
      return withDefault({ type: "string", format: "email", ...bounds("minLength", "maxLength", field.min, field.max) });
    case "url":
      return withDefault({ type: "string", format: "uri", ...bounds("minLength", "maxLength", field.min, field.max) });
    case "enum":
      return withDefault({ type: "string", enum: field.values });
    case "json":
      return withDefault({ description: "Any JSON value." });
    case "file":
      return { type: "string", description: "The id of an uploaded file (upload it with multipart/form-data under this field's name)." };
    case "relation": {
      const id = { type: "string", description: `The id of a ${field.target} record.` };
      return field.many ? { type: "array", items: id, ...bounds("minItems", "maxItems", field.min, field.max) } : id;
    }
    case "component":
      return field.repeatable
        ? { type: "array", items: schemaRef(componentSchemaName(field.component)), ...bounds("minItems", "maxItems", field.min, field.max) }
        : schemaRef(componentSchemaName(field.component));
    case "dynamic_zone":
      return {
        type: "array",
        ...bounds("minItems", "maxItems", field.min, field.max),
        items: {
          oneOf: field.components.map((component) => ({
            allOf: [{ type: "object", properties: { [COMPONENT_KEY]: { const: component } }, required: [COMPONENT_KEY] }, schemaRef(componentSchemaName(component))],
          })),
        },
      };
  }
}

/** Lists are answered as `[]` when empty; other optional fields a record lacks are answered as null. */
function isList(field: FieldDefinition): boolean {
  return (field.type === "relation" && field.many === true) || (field.type === "component" && field.repeatable === true) || field.type === "dynamic_zone";
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") {
    return { ...schema, type: [schema.type, "null"], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  }
  if ("$ref" in schema) return { oneOf: [schema, { type: "null" }] };
  return schema;
}

function describeFields(fields: readonly FieldDefinition[], direction: Direction, options: { requireRequired: boolean }): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    const value = describeFieldValue(field);
    const mayBeNull = direction === "output" ? !isList(field) && !field.required : !field.required;
    properties[field.name] = mayBeNull ? nullable(value) : value;
    if (direction === "output" || (options.requireRequired && field.required && !("default" in field && field.default !== undefined))) required.push(field.name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

export interface RecordSchemaSet {
  schemas: Record<string, JsonSchema>;
}

/**
 * JSON Schemas of the project's records, under components.schemas: for every collection and auth
 * schema its record as answered (`<name>.record`: system fields, every field, null or [] when
 * unset, `expand` when it has relations) and its create and update bodies (for auth schemas, the
 * register body); one object schema per
 * component (`component.<name>`), which dynamic zones combine with their `__component` key.
 */
export function describeRecordSchemas(schemas: readonly SchemaDefinition[]): RecordSchemaSet {
  const described: Record<string, JsonSchema> = {};
  const recordNames = new Set(schemas.filter((schema) => schema.kind !== "component").map((schema) => schema.name));
  for (const schema of schemas) {
    if (schema.kind === "component") {
      described[componentSchemaName(schema.name)] = { ...describeFields(schema.fields, "input", { requireRequired: true }), description: `The component ${schema.name}.` };
      continue;
    }
    const fields = effectiveFields(schema);
    const output = describeFields(fields, "output", { requireRequired: true });
    const relations = fields.filter((field) => field.type === "relation");
    const properties = {
      id: { type: "string", readOnly: true },
      ...(output.properties as Record<string, JsonSchema>),
      createdAt: { type: "string", format: "date-time", readOnly: true },
      updatedAt: { type: "string", format: "date-time", readOnly: true },
      ...(relations.length > 0
        ? {
            expand: {
              type: "object",
              description: "Related records asked for with `expand`, by relation field.",
              properties: Object.fromEntries(
                relations.map((field) => {
                  // A target removed since the relation was saved expands to nothing known.
                  const related = recordNames.has(field.target) ? schemaRef(recordSchemaName(field.target)) : { type: "object" };
                  return [field.name, field.many ? { type: "array", items: related } : nullable(related)];
                }),
              ),
            },
          }
        : {}),
    };
    described[recordSchemaName(schema.name)] = {
      type: "object",
      description: schema.kind === "auth" ? `An end user of the auth schema ${schema.name} (never the password).` : `A record of ${schema.name}.`,
      properties,
      required: ["id", ...((output.required as string[] | undefined) ?? []), "createdAt", "updatedAt"],
    };
    if (schema.kind === "auth") {
      // End users are created by the register route: email and password, then the schema's own fields.
      const own = describeFields(schema.fields, "input", { requireRequired: true });
      described[createInputSchemaName(schema.name)] = {
        type: "object",
        properties: { email: REGISTER_EMAIL, password: REGISTER_PASSWORD, ...(own.properties as Record<string, JsonSchema>) },
        required: ["email", "password", ...((own.required as string[] | undefined) ?? [])],
        additionalProperties: false,
      };
      continue;
    }
    described[createInputSchemaName(schema.name)] = { ...describeFields(fields, "input", { requireRequired: true }), additionalProperties: false };
    described[updateInputSchemaName(schema.name)] = { ...describeFields(fields, "input", { requireRequired: false }), additionalProperties: false };
  }
  return { schemas: described };
}
