import type { FlowStepOf } from "@/lib/flow/flow-definition";
import { renderJsonBody } from "@/lib/flow/engine/render-json-body";
import { FlowStop, type StepRunContext } from "@/lib/flow/engine/step-runner";
import { evaluateCheck } from "./evaluate-check";

export const CONDITION_NOT_MET_STATUS = 422;
export const CONDITION_NOT_MET_BODY = '{"error":"condition not met"}';

/**
 * Passes (output null) or stops the run with the step's stop status and body. The stop answer is
 * served as JSON, so its body is rendered by the same JSON renderer as an endpoint's JSON response.
 */
export function runCondition(step: FlowStepOf<"condition">, { context }: StepRunContext): FlowStop | null {
  const passed = step.combinator === "all" ? step.checks.every((check) => evaluateCheck(check, context)) : step.checks.some((check) => evaluateCheck(check, context));
  if (passed) return null;
  return new FlowStop({
    status: step.stopStatus ?? CONDITION_NOT_MET_STATUS,
    body: step.stopBody === null ? CONDITION_NOT_MET_BODY : renderJsonBody(step.stopBody, context),
  });
}
