import { z } from "zod";
import { defineStep } from "../step-definition";
import { checkExpression } from "./compile-expression";

/** A JMESPath expression over the whole context (body, query, user, steps, trigger). Output: its result. */
export const transformStep = defineStep({
  id: "transform",
  label: "Transform",
  description: "Reshape data with a JMESPath expression over the whole context; it cannot change data.",
  settings: z.object({
    /** At most FLOW_LIMITS.maxExpressionLength characters and maxExpressionNesting levels. */
    expression: z.string().superRefine((expression, ctx) => {
      const problem = checkExpression(expression);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
  }),
  defaults: { expression: "" },
  editor: {},
});
