import { z } from "zod";
import { defineStep } from "../step-definition";
import { transformCatalog } from "./catalog";

/** A JMESPath expression over the whole context (body, query, user, steps, trigger). Output: its result. */
export const transformStep = defineStep({
  ...transformCatalog,
  settings: z.object({
    /** Compiled within FLOW_LIMITS when validated: the check is in ../field-checks.ts (JMESPath stays out of the editor's first load). */
    expression: z.string(),
  }),
});
