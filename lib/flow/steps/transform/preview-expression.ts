import { checkExpression } from "./compile-expression";
import { evaluateTransformOrThrow, type TransformScope } from "./evaluate-transform";

/** How much of a preview's JSON the editor shows. */
export const PREVIEW_MAX_CHARS = 2_000;

export type ExpressionPreview =
  | { kind: "empty" }
  /** `summary` says what came out in a few words ("a list of 3 items"), for screen readers. */
  | { kind: "result"; text: string; truncated: boolean; summary: string }
  /** `stage` says whether the expression cannot be saved (compile) or failed over this context (run). */
  | { kind: "error"; stage: "compile" | "run"; message: string };

/**
 * A transform expression evaluated over a sample context (the last test run's) by the same
 * compiler, interpreter, functions and limits as the step, for the editor to show as the owner
 * types. The result is pretty JSON cut at `maxChars`.
 */
export function previewExpression(expression: string, context: TransformScope, maxChars = PREVIEW_MAX_CHARS): ExpressionPreview {
  if (expression.trim() === "") return { kind: "empty" };
  const problem = checkExpression(expression);
  if (problem !== null) return { kind: "error", stage: "compile", message: problem };
  let result: unknown;
  try {
    result = evaluateTransformOrThrow(expression, context);
  } catch (error) {
    return { kind: "error", stage: "run", message: error instanceof Error ? error.message : String(error) };
  }
  const value = result === undefined ? null : result;
  const text = JSON.stringify(value, null, 2);
  const summary = summarize(value);
  return text.length > maxChars ? { kind: "result", text: `${text.slice(0, maxChars)}…`, truncated: true, summary } : { kind: "result", text, truncated: false, summary };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function summarize(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `a list of ${plural(value.length, "item")}`;
  if (typeof value === "object") return `an object with ${plural(Object.keys(value).length, "field")}`;
  if (typeof value === "string") return value.length <= 40 ? `the text "${value}"` : `a text of ${plural(value.length, "character")}`;
  return String(value);
}
