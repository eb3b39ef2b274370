import { z } from "zod";
import { FIELD_LIMITS } from "./field-limits";

/**
 * The shape of one field of a schema definition (docs/DESIGN.md section 5): its types, names and
 * per-type options. Apart from schema-definition.ts so that the value checks
 * (check-field-value.ts), which schema-definition.ts runs on defaults, can read these types without
 * the two files importing each other.
 */

export const FIELD_TYPES = [
  "string",
  "text",
  "richtext",
  "number",
  "integer",
  "boolean",
  "datetime",
  "email",
  "url",
  "enum",
  "json",
  "relation",
  "component",
  "dynamic_zone",
  "file",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const SCHEMA_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
export const FIELD_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;

export const schemaNameSchema = z.string().regex(SCHEMA_NAME_PATTERN, {
  message: "must start with a lowercase letter and contain only lowercase letters, digits and underscores (at most 63 characters)",
});
const fieldName = z.string().regex(FIELD_NAME_PATTERN, {
  message: "must start with a letter and contain only letters, digits and underscores (at most 64 characters)",
});
const count = (limit: number) => z.int().min(0).max(limit);
const length = (limit: number) => z.int().min(0).max(limit);
const isoDateTime = z.string().max(64);

const common = {
  name: fieldName,
  required: z.boolean().optional(),
};
const uniqueOption = {
  unique: z.boolean().optional(),
  /** A real index in the customer database, so that filters and sorts on the field stay fast on large collections. */
  indexed: z.boolean().optional(),
};

const stringField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("string"),
  default: z.string().optional(),
  min: length(FIELD_LIMITS.stringMaxLength).optional(),
  max: length(FIELD_LIMITS.stringMaxLength).optional(),
  /** A JavaScript regular expression (Unicode mode), not anchored: use ^ and $ to match the whole value. */
  pattern: z.string().optional(),
});

const textField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("text"),
  default: z.string().optional(),
  min: length(FIELD_LIMITS.textMaxLength).optional(),
  max: length(FIELD_LIMITS.textMaxLength).optional(),
});

const richtextField = z.strictObject({
  ...common,
  type: z.literal("richtext"),
  default: z.string().optional(),
  min: length(FIELD_LIMITS.textMaxLength).optional(),
  max: length(FIELD_LIMITS.textMaxLength).optional(),
});

const numberField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("number"),
  default: z.number().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

const integerField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("integer"),
  default: z.int().optional(),
  min: z.int().optional(),
  max: z.int().optional(),
});

const booleanField = z.strictObject({
  ...common,
  indexed: uniqueOption.indexed,
  type: z.literal("boolean"),
  default: z.boolean().optional(),
});

const datetimeField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("datetime"),
  /** ISO 8601 with a time zone (or a date, read as midnight UTC). */
  default: isoDateTime.optional(),
  min: isoDateTime.optional(),
  max: isoDateTime.optional(),
});

const emailField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("email"),
  default: z.string().optional(),
  min: length(FIELD_LIMITS.emailMaxLength).optional(),
  max: length(FIELD_LIMITS.emailMaxLength).optional(),
});

const urlField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("url"),
  default: z.string().optional(),
  min: length(FIELD_LIMITS.urlMaxLength).optional(),
  max: length(FIELD_LIMITS.urlMaxLength).optional(),
});

const enumField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("enum"),
  values: z
    .array(
      z
        .string()
        .min(1)
        .max(FIELD_LIMITS.enumValueLength)
        .refine((value) => !value.includes("\u0000") && !value.includes(","), { message: "must not contain commas or the NUL character" }),
    )
    .min(1, { message: "must list at least one value" })
    .max(FIELD_LIMITS.enumValues)
    .refine((values) => new Set(values).size === values.length, { message: "must not repeat a value" }),
  default: z.string().optional(),
});

const jsonField = z.strictObject({
  ...common,
  type: z.literal("json"),
  default: z.json().optional(),
});

const relationField = z.strictObject({
  ...common,
  ...uniqueOption,
  type: z.literal("relation"),
  /** The name of the related schema (a collection or auth schema). */
  target: schemaNameSchema,
  /** False: one record id; true: an ordered list of record ids. */
  many: z.boolean().optional(),
  /** Number of related records (many relations only). */
  min: count(FIELD_LIMITS.items).optional(),
  max: count(FIELD_LIMITS.items).optional(),
});

const componentField = z.strictObject({
  ...common,
  type: z.literal("component"),
  /** The name of a schema of kind `component`. */
  component: schemaNameSchema,
  /** False: one object; true: an ordered list of objects. */
  repeatable: z.boolean().optional(),
  /** Number of items (repeatable components only). */
  min: count(FIELD_LIMITS.items).optional(),
  max: count(FIELD_LIMITS.items).optional(),
});

const dynamicZoneField = z.strictObject({
  ...common,
  type: z.literal("dynamic_zone"),
  /** The components an item may be; each item names its own in `__component`. */
  components: z
    .array(schemaNameSchema)
    .min(1, { message: "must allow at least one component" })
    .max(50)
    .refine((names) => new Set(names).size === names.length, { message: "must not repeat a component" }),
  min: count(FIELD_LIMITS.items).optional(),
  max: count(FIELD_LIMITS.items).optional(),
});

const fileField = z.strictObject({
  ...common,
  type: z.literal("file"),
  /** Largest accepted upload in bytes. */
  maxBytes: z.int().min(1).max(FIELD_LIMITS.fileMaxBytes).optional(),
  /** Accepted MIME types (`image/png`, `image/*`) or extensions (`.pdf`). Empty or absent: any. */
  accept: z
    .array(z.string().regex(/^(\.[a-z0-9]{1,16}|[a-z]+\/([a-z0-9][a-z0-9.+-]{0,99}|\*))$/i, { message: "must be a MIME type (image/png, image/*) or an extension (.pdf)" }))
    .max(50)
    .optional(),
});

export const fieldDefinitionSchema = z.discriminatedUnion("type", [
  stringField,
  textField,
  richtextField,
  numberField,
  integerField,
  booleanField,
  datetimeField,
  emailField,
  urlField,
  enumField,
  jsonField,
  relationField,
  componentField,
  dynamicZoneField,
  fileField,
]);

export type FieldDefinition = z.output<typeof fieldDefinitionSchema>;
export type FieldOfType<T extends FieldType> = Extract<FieldDefinition, { type: T }>;
