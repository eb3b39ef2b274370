import { z } from "zod";
import { checkPattern } from "@/lib/schemas/pattern-safety";
import { INPUT_FIELD_NAME, INPUT_FIELD_TYPES, INPUT_LIMITS, type InputFieldType, type InputLocation } from "./endpoint-constants";

/**
 * An endpoint's typed input (docs/DESIGN.md "Typed endpoint inputs"): the query parameters and body
 * fields a call must respect, checked before any step runs (lib/endpoints/invoke/compile-input-check.ts).
 * Browser-safe: the editor's field table validates with the same schema.
 *
 * `min`/`max` bound the value of numbers and integers, the length of strings and the item count of
 * arrays; they do not apply to booleans and objects.
 */
export { INPUT_FIELD_NAME, INPUT_FIELD_TYPES, INPUT_LIMITS, INPUT_LOCATIONS } from "./endpoint-constants";
export type { InputFieldType, InputLocation } from "./endpoint-constants";
const INPUT_FIELD_NAME_MESSAGE = "must start with a letter and contain only letters, digits, _ or - (at most 64)";

/** Names every plain object inherits: declaring one would read the prototype's member for an absent field. */
const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype).concat("prototype"));

const BOUNDED_TYPES: ReadonlySet<InputFieldType> = new Set(["string", "number", "integer", "array"]);
const ENUM_TYPES: ReadonlySet<InputFieldType> = new Set(["string", "number", "integer"]);
const LENGTH_TYPES: ReadonlySet<InputFieldType> = new Set(["string", "array"]);

function enumValueFits(type: InputFieldType, value: string | number): boolean {
  if (type === "string") return typeof value === "string";
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return typeof value === "number";
}

export const inputFieldSchema = z
  .object({
    type: z.enum(INPUT_FIELD_TYPES, { message: `must be one of ${INPUT_FIELD_TYPES.join(", ")}` }),
    required: z.boolean().optional(),
    enum: z
      .array(z.union([z.string().max(INPUT_LIMITS.maxEnumStringLength), z.number().finite()]))
      .min(1, "list at least one value")
      .max(INPUT_LIMITS.maxEnumValues, `at most ${INPUT_LIMITS.maxEnumValues} values`)
      .optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    pattern: z.string().optional(),
  })
  .strict()
  .superRefine((field, ctx) => {
    if (field.enum) {
      if (!ENUM_TYPES.has(field.type)) ctx.addIssue({ code: "custom", path: ["enum"], message: "applies to string, number and integer fields only" });
      else {
        field.enum.forEach((value, index) => {
          if (!enumValueFits(field.type, value))
            ctx.addIssue({ code: "custom", path: ["enum", index], message: `must be ${field.type === "integer" ? "a whole number" : `a ${field.type}`}` });
        });
      }
    }
    for (const bound of ["min", "max"] as const) {
      const value = field[bound];
      if (value === undefined) continue;
      if (!BOUNDED_TYPES.has(field.type)) ctx.addIssue({ code: "custom", path: [bound], message: "applies to number, integer, string and array fields only" });
      else if (LENGTH_TYPES.has(field.type) && (!Number.isInteger(value) || value < 0)) {
        ctx.addIssue({ code: "custom", path: [bound], message: `is a ${field.type === "string" ? "length" : "number of items"}: a whole number of at least 0` });
      }
    }
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
      ctx.addIssue({ code: "custom", path: ["max"], message: `must not be less than min (${field.min})` });
    }
    if (field.pattern !== undefined) {
      if (field.type !== "string") ctx.addIssue({ code: "custom", path: ["pattern"], message: "applies to string fields only" });
      else {
        const problem = checkPattern(field.pattern);
        if (problem) ctx.addIssue({ code: "custom", path: ["pattern"], message: problem });
      }
    }
  });

export type InputField = z.infer<typeof inputFieldSchema>;

const queryFieldSchema = inputFieldSchema.superRefine((field, ctx) => {
  if (field.type === "object") ctx.addIssue({ code: "custom", path: ["type"], message: "a query parameter cannot be an object" });
});

function inputFieldsSchema(location: InputLocation) {
  // The names are checked on the raw object: parsing a record drops a `__proto__` key silently.
  return z.preprocess(
    (value, ctx) => {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
      const names = Object.keys(value);
      if (names.length > INPUT_LIMITS.maxFields) ctx.addIssue({ code: "custom", message: `at most ${INPUT_LIMITS.maxFields} fields`, input: value });
      for (const name of names) {
        if (RESERVED_FIELD_NAMES.has(name)) ctx.addIssue({ code: "custom", path: [name], message: `"${name}" is reserved: choose another name`, input: value });
        else if (!INPUT_FIELD_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name.slice(0, 80)], message: INPUT_FIELD_NAME_MESSAGE, input: value });
      }
      return value;
    },
    z.record(z.string(), location === "query" ? queryFieldSchema : inputFieldSchema),
  );
}

/** `input` of an endpoint definition; null (or absent) means no checks. */
export const endpointInputSpecSchema = z
  .object({
    query: inputFieldsSchema("query").optional(),
    body: inputFieldsSchema("body").optional(),
  })
  .strict();

export type EndpointInputSpec = z.infer<typeof endpointInputSpecSchema>;

/** True when the spec declares at least one field (an empty spec checks nothing). */
export function declaresInputFields(spec: EndpointInputSpec | null | undefined): spec is EndpointInputSpec {
  return Boolean(spec && (Object.keys(spec.query ?? {}).length > 0 || Object.keys(spec.body ?? {}).length > 0));
}
