import type { StepCatalogEntry } from "../step-catalog";

export const CONDITION_OPERATORS = ["equals", "not_equals", "contains", "greater_than", "less_than", "exists", "not_exists"] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Operators that look at the left operand only. */
export const UNARY_OPERATORS: ReadonlySet<ConditionOperator> = new Set(["exists", "not_exists"]);

/** The condition step as the editor knows it (its settings schema: definition.ts). */
export const conditionCatalog = {
  id: "condition",
  label: "Condition",
  description: "Stop the flow cleanly unless the checks pass.",
  defaults: { checks: [{ left: "", operator: "exists" as const }], combinator: "all" as const, stopStatus: null, stopBody: null },
  editor: { checks: true, numbers: { stopStatus: "nullable" }, emptyIsNull: ["stopBody"], noOutput: true },
} satisfies StepCatalogEntry<"condition">;
