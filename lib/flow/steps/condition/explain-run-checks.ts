import { createFlowContext, type FlowContextInput } from "@/lib/flow/engine/context";
import type { StepResult } from "@/lib/flow/engine/run-flow";
import type { FlowStep } from "@/lib/flow/flow-definition";
import { explainCheck, type Operand } from "./evaluate-check";

/** How long an operand's JSON may be in a check report before it is cut. */
export const CHECK_OPERAND_MAX_CHARS = 300;

/** An operand as a test run shows it: JSON text (so `"10"` and `10` differ), or the placeholder that did not resolve. */
export interface OperandReport {
  missing: boolean;
  text: string;
}

export interface CheckReport {
  left: OperandReport;
  /** Null for exists / not_exists. */
  right: OperandReport | null;
  passed: boolean;
}

function reportOperand(operand: Operand): OperandReport {
  const text = operand.missing ? String(operand.value) : (JSON.stringify(operand.value) ?? "null");
  return { missing: operand.missing, text: text.length > CHECK_OPERAND_MAX_CHARS ? `${text.slice(0, CHECK_OPERAND_MAX_CHARS)}…` : text };
}

/**
 * Each condition check of a finished run, decided again over the context that condition saw: the
 * request and the outputs of the steps before it (the engine stores an output only when its step
 * succeeded, so the same rule rebuilds it). Keyed by step index; conditions that did not run
 * (disabled, after a stop or failure) have no entry. The engine's answer stays as it is: this is
 * for the test run's answer only.
 */
export function explainRunChecks(options: { steps: readonly FlowStep[]; results: readonly StepResult[]; input: FlowContextInput }): Map<number, CheckReport[]> {
  const context = createFlowContext(options.input);
  const reports = new Map<number, CheckReport[]>();
  for (const result of options.results) {
    const step = options.steps[result.index];
    if (step?.type === "condition" && (result.status === "ok" || result.status === "stopped")) {
      reports.set(
        result.index,
        step.checks.map((check) => {
          const verdict = explainCheck(check, context);
          return { left: reportOperand(verdict.left), right: verdict.right === null ? null : reportOperand(verdict.right), passed: verdict.passed };
        }),
      );
    }
    if (result.status === "ok" && result.name !== null) context.steps[result.name] = result.output;
  }
  return reports;
}
