import { objectShape, UNKNOWN_SHAPE, type ValueShape } from "./value-shape";

const MAX_DEPTH = 6;
const MAX_FIELDS = 100;

/**
 * The shape of a sample value (a step's output from the last test run), for suggestions only: a
 * sample shows fields one run had, not all a run may have, so the lint never reports against it.
 * Bounded in depth and width; a list takes the shape of its first item.
 */
export function shapeOfValue(value: unknown, depth = 0): ValueShape {
  if (value === null || value === undefined) return { kind: "null", note: "was empty in the last test run", label: "empty in the last test run" };
  if (typeof value === "string") return { kind: "text" };
  if (typeof value === "number") return { kind: "number" };
  if (typeof value === "boolean") return { kind: "boolean" };
  if (depth >= MAX_DEPTH) return UNKNOWN_SHAPE;
  if (Array.isArray(value)) return { kind: "array", items: value.length > 0 ? shapeOfValue(value[0], depth + 1) : UNKNOWN_SHAPE };
  if (typeof value === "object") {
    const keys = Object.keys(value).slice(0, MAX_FIELDS);
    return objectShape(keys.map((key) => [key, shapeOfValue((value as Record<string, unknown>)[key], depth + 1)] as const));
  }
  return UNKNOWN_SHAPE;
}
