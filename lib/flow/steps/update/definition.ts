import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { fieldValuesSchema, filterLinesSchema, schemaNameSchema } from "../shared/fields";
import { parseFilterLines } from "../shared/filter-lines";
import { filterFieldIssues, recordSchemaOf, unknownFieldIssues } from "../shared/project-checks";
import { defineStep } from "../step-definition";
import { updateCatalog } from "./catalog";

/** Updates the first record matching the filters. Output: the record with `matched: true`, or `{matched: false}`. */
export const updateStep = defineStep({
  ...updateCatalog,
  settings: z.object({
    schema: schemaNameSchema,
    /** One `field=<template>` per line; at least one, so an update never hits an arbitrary record. */
    filters: filterLinesSchema,
    values: fieldValuesSchema.default({}),
  }),
  timeoutMs: FLOW_LIMITS.databaseTimeoutMs,
  refine(settings, ctx) {
    const parsed = parseFilterLines(settings.filters);
    if (parsed.ok && parsed.filters.length === 0) {
      ctx.addIssue({ code: "custom", path: ["filters"], message: "add at least one filter (field=value)" });
    }
  },
  checkWithProject(settings, project) {
    const found = recordSchemaOf(project, settings.schema);
    if ("issues" in found) return found.issues;
    return [...filterFieldIssues(settings.filters, found.schema), ...unknownFieldIssues(Object.keys(settings.values), found.schema, "values", "field")];
  },
});
