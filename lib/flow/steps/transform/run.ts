import { AppError, isAppError } from "@/lib/errors";
import type { FlowStepOf } from "@/lib/flow/flow-definition";
import { jsonSizeWithin } from "@/lib/flow/engine/json-size";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { compileExpressionOrThrow } from "./compile-expression";
import { evaluateExpression } from "./guarded-interpreter";

/** Evaluates the step's JMESPath expression over the whole context. Output: the result, capped in size. */
export function runTransform(step: FlowStepOf<"transform">, { context }: StepRunContext): unknown {
  const ast = compileExpressionOrThrow(step.expression);
  let result: unknown;
  try {
    result = evaluateExpression(ast, context, {
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
