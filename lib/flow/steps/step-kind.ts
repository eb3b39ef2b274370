import { STEP_DEFINITIONS, type StepKind } from "./registry";

export type { StepKind };

/** Every step kind a flow can use, in the order the editor offers them: the keys of the registry. */
export const STEP_KINDS = Object.keys(STEP_DEFINITIONS) as readonly StepKind[];
