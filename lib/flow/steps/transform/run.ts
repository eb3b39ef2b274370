import type { FlowStepOf } from "@/lib/flow/flow-definition";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { evaluateTransformOrThrow } from "./evaluate-transform";

/** Evaluates the step's JMESPath expression over the whole context. Output: the result, capped in size. */
export function runTransform(step: FlowStepOf<"transform">, { context }: StepRunContext): unknown {
  return evaluateTransformOrThrow(step.expression, context);
}
