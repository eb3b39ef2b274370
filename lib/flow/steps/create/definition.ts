import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { fieldValuesSchema, schemaNameSchema } from "../shared/fields";
import { recordSchemaOf, unknownFieldIssues } from "../shared/project-checks";
import { defineStep } from "../step-definition";
import { createCatalog } from "./catalog";

/** Creates one record; the records API validation applies. Output: the created record. */
export const createStep = defineStep({
  ...createCatalog,
  settings: z.object({
    schema: schemaNameSchema,
    /** Field → template; a single placeholder keeps its type. */
    values: fieldValuesSchema.default({}),
  }),
  timeoutMs: FLOW_LIMITS.databaseTimeoutMs,
  checkWithProject(settings, project) {
    const found = recordSchemaOf(project, settings.schema);
    return "issues" in found ? found.issues : unknownFieldIssues(Object.keys(settings.values), found.schema, "values", "field");
  },
});
