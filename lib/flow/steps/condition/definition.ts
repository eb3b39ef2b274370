import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { templateSchema } from "../shared/fields";
import { defineStep } from "../step-definition";
import { CONDITION_OPERATORS, UNARY_OPERATORS, conditionCatalog } from "./catalog";

/** An operand: a template (a single placeholder keeps its type) or a JSON scalar. */
const operandSchema = z.union([templateSchema(2_000), z.number(), z.boolean(), z.null()]);

export const conditionCheckSchema = z
  .object({
    left: operandSchema,
    operator: z.enum(CONDITION_OPERATORS),
    right: operandSchema.optional(),
  })
  .superRefine((check, ctx) => {
    if (!UNARY_OPERATORS.has(check.operator) && check.right === undefined) {
      ctx.addIssue({ code: "custom", path: ["right"], message: `the ${check.operator} operator needs a right operand` });
    }
  });

export type ConditionCheck = z.output<typeof conditionCheckSchema>;

/**
 * Checks combined with all/any. When they fail the run stops cleanly: the caller gets the stop
 * status and body, or 422 {"error":"condition not met"}. Output: none (null).
 */
export const conditionStep = defineStep({
  ...conditionCatalog,
  settings: z.object({
    checks: z.array(conditionCheckSchema).min(1, "add at least one check").max(FLOW_LIMITS.maxConditionChecks, `at most ${FLOW_LIMITS.maxConditionChecks} checks`),
    combinator: z.enum(["all", "any"]).default("all"),
    /** The answer's status when the checks fail; default 422. */
    stopStatus: z
      .number()
      .int()
      .min(200)
      .max(599)
      .nullish()
      .transform((status) => status ?? null),
    /** The answer's body template when the checks fail; default {"error":"condition not met"}. */
    stopBody: templateSchema(100_000)
      .nullish()
      .transform((body) => (body === undefined || body === "" ? null : body)),
  }),
});
