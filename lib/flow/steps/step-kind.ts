import { STEP_CATALOG, type StepKind } from "./catalog";

export type { StepKind };

/** Every step kind a flow can use, in the order the editor offers them: the keys of the catalog. */
export const STEP_KINDS = Object.keys(STEP_CATALOG) as readonly StepKind[];
