import type { FieldDefinition } from "@/lib/schemas/schema-definition";

/**
 * Filter values from query strings arrive as text (`price={{query.price}}` is "10"). Where the
 * field's type makes the meaning unambiguous, the text becomes that type so equality can match;
 * anything else (objects included) stays a literal, compared as it is.
 */
export function coerceFilterValue(field: FieldDefinition | undefined, value: unknown): unknown {
  if (typeof value !== "string" || !field) return value;
  const text = value.trim();
  switch (field.type) {
    case "number":
      return text !== "" && Number.isFinite(Number(text)) ? Number(text) : value;
    case "integer":
      return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : value;
    case "boolean":
      return text === "true" ? true : text === "false" ? false : value;
    default:
      return value;
  }
}
