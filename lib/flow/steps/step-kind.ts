/** Every step kind a flow can use, in the order the editor offers them. */
export const STEP_KINDS = ["query", "transform", "condition", "create", "update", "http", "webhook", "email"] as const;

export type StepKind = (typeof STEP_KINDS)[number];
