import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { fieldValuesSchema, schemaNameSchema } from "../shared/fields";
import { filterLinesSchema, parseFilterLines } from "../shared/filter-lines";
import { filterFieldIssues, recordSchemaOf, unknownFieldIssues } from "../shared/project-checks";
import { defineStep } from "../step-definition";

/** Updates the first record matching the filters. Output: the record with `matched: true`, or `{matched: false}`. */
export const updateStep = defineStep({
  id: "update",
  label: "Update record",
  description: "Update the first record that matches the filters with field values (templates).",
  settings: z.object({
    schema: schemaNameSchema,
    /** One `field=<template>` per line; at least one, so an update never hits an arbitrary record. */
    filters: filterLinesSchema,
    values: fieldValuesSchema.default({}),
  }),
  defaults: { schema: "", filters: "", values: {} },
  editor: { rows: "values" },
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
