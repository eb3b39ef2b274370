import type { InputField, InputLocation } from "@/lib/endpoints/endpoint-input";
import { BOOLEAN_SHAPE, NUMBER_SHAPE, objectShape, TEXT_SHAPE, UNKNOWN_SHAPE, type ValueShape } from "./value-shape";

function shapeOfField(field: InputField, location: InputLocation): ValueShape {
  const presence = field.required ? "required" : "optional";
  switch (field.type) {
    case "string":
      return { ...TEXT_SHAPE, label: `text, ${presence}` };
    case "number":
      return { ...NUMBER_SHAPE, label: `number, ${presence}` };
    case "integer":
      return { ...NUMBER_SHAPE, label: `whole number, ${presence}` };
    case "boolean":
      return { ...BOOLEAN_SHAPE, label: `true or false, ${presence}` };
    case "array":
      // A query list is the repeated parameter's values, always text; a body list holds any JSON.
      return { kind: "array", items: location === "query" ? TEXT_SHAPE : UNKNOWN_SHAPE, label: `list, ${presence}` };
    case "object":
      return { kind: "unknown", label: `object, ${presence}` };
  }
}

/**
 * `body` or `query` of an endpoint that declares its input (lib/endpoints/endpoint-input.ts): the
 * declared fields with their types, as the checks guarantee them when the flow runs (query numbers
 * and booleans arrive converted). Undeclared fields still reach the flow unchecked, so the lint's
 * warning about one is advice, never an error.
 */
export function shapeOfDeclaredInput(fields: Readonly<Record<string, InputField>>, location: InputLocation): ValueShape {
  return objectShape(
    Object.entries(fields).map(([name, field]) => [name, shapeOfField(field, location)] as const),
    {
      label: location === "body" ? "the request body (declared input)" : "query parameters (declared input)",
      note: `it is not declared in the endpoint's input, so it is passed through unchecked; declare it under input.${location}`,
    },
  );
}
