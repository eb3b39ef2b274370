import { AppError, isAppError } from "@/lib/errors";
import type { FlowContext } from "@/lib/flow/engine/context";
import { jsonSizeWithin } from "@/lib/flow/engine/json-size";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { compileExpressionOrThrow } from "./compile-expression";
import { evaluateExpression } from "./guarded-interpreter";

/** What an expression reads: a run's context, or the editor's sample of one (the request fields may be left out). */
export type TransformScope = Pick<FlowContext, "steps"> & Omit<Partial<FlowContext>, "steps">;

/**
 * A transform's expression evaluated over a context, within the run limits: what the step does on
 * the server and what the editor previews against a test run's context (browser-safe). Throws
 * AppError("validation_failed") with the message the step's log shows.
 *
 * The expression sees a copy of `steps`: a result may hand back parts of the context as they are
 * (`steps`, `@`, `{all: @}`), and the engine stores the result under `steps.<name>`; were that the
 * live record, the output would contain itself and every later rendering of it would fail.
 */
export function evaluateTransformOrThrow(expression: string, context: TransformScope): unknown {
  const ast = compileExpressionOrThrow(expression);
  const scope = { ...context, steps: { ...context.steps } };
  let result: unknown;
  try {
    result = evaluateExpression(ast, scope, {
      maxWork: FLOW_LIMITS.maxTransformWork,
      maxChars: FLOW_LIMITS.maxTransformOutputChars,
    });
  } catch (error) {
    if (isAppError(error)) throw error;
    // The library's runtime errors name types and functions only ("Invalid type: expected number").
    throw new AppError("validation_failed", `transform failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const max = FLOW_LIMITS.maxTransformOutputChars;
  if (jsonSizeWithin(result, max) > max) {
    throw new AppError("validation_failed", `transform output is larger than ${max} characters when serialised`);
  }
  return result;
}
