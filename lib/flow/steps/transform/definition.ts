import { z } from "zod";
import { defineStep } from "../step-definition";

/** A JMESPath expression over the whole context (body, query, user, steps, trigger). Output: its result. */
export const transformStep = defineStep({
  id: "transform",
  label: "Transform",
  description: "Reshape data with a JMESPath expression over the whole context; it cannot change data.",
  settings: z.object({
    /** Compiled within FLOW_LIMITS when validated: the check is in ../field-checks.ts (JMESPath stays out of the editor's first load). */
    expression: z.string(),
  }),
  defaults: { expression: "" },
  editor: {},
});
