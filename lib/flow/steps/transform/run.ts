import { AppError, isAppError } from "@/lib/errors";
import type { FlowStepOf } from "@/lib/flow/flow-definition";
import { jsonSizeWithin } from "@/lib/flow/engine/json-size";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { compileExpressionOrThrow } from "./compile-expression";
import { evaluateExpression } from "./guarded-interpreter";

/**
 * Evaluates the step's JMESPath expression over the whole context. Output: the result, capped in size.
 *
 * The expression sees a copy of `steps`: a result may hand back parts of the context as they are
 * (`steps`, `@`, `{all: @}`), and the engine stores the result under `steps.<name>`; were that the
 * live record, the output would contain itself and every later rendering of it would fail.
 */
export function runTransform(step: FlowStepOf<"transform">, { context }: StepRunContext): unknown {
  const ast = compileExpressionOrThrow(step.expression);
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
