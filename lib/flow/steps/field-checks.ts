import { checkExpression } from "./transform/compile-expression";
import type { StepKind } from "./step-kind";

/**
 * Checks of single settings that need a library the editor's first load should not carry (the
 * transform's JMESPath compiler), kept out of the definitions, which every editor imports.
 * flowStepSchema (flow-definition.ts) adds them to the fields, so the API, the engine and the
 * editor's live checks (loaded at the owner's first input) report them as before: one message at the
 * field's path. A check returns the problem, or null when the value is fine.
 */
export const STEP_FIELD_CHECKS: { readonly [K in StepKind]?: Readonly<Record<string, (value: string) => string | null>> } = {
  /** At most FLOW_LIMITS.maxExpressionLength characters and maxExpressionNesting levels, and it compiles. */
  transform: { expression: checkExpression },
};
