import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { fieldNameSchema, filterLinesSchema, schemaNameSchema } from "../shared/fields";
import { filterFieldIssues, recordSchemaOf, unknownFieldIssues } from "../shared/project-checks";
import { defineStep } from "../step-definition";
import { queryCatalog } from "./catalog";

/** Reads records of one schema. Output: the array of matched records (expanded relations under `expand.<field>`). */
export const queryStep = defineStep({
  ...queryCatalog,
  settings: z.object({
    schema: schemaNameSchema,
    /** One `field=<template>` per line; all must match. */
    filters: filterLinesSchema.default(""),
    limit: z.number().int().min(1).max(FLOW_LIMITS.maxQueryLimit).default(20),
    /** `field` (ascending) or `-field` (descending); empty for the store's order. */
    sort: z
      .string()
      .trim()
      .regex(/^(-?[A-Za-z_][A-Za-z0-9_-]{0,63})?$/, "must be a field name, optionally prefixed with - for descending")
      .nullish()
      .transform((sort) => sort || null),
    /** Relation fields whose related documents are included under `expand.<field>`. */
    expand: z.array(fieldNameSchema).max(FLOW_LIMITS.maxExpand).default([]),
  }),
  timeoutMs: FLOW_LIMITS.databaseTimeoutMs,
  checkWithProject(settings, project) {
    const found = recordSchemaOf(project, settings.schema);
    if ("issues" in found) return found.issues;
    const { schema } = found;
    return [
      ...filterFieldIssues(settings.filters, schema),
      ...settings.expand.flatMap((field, position) =>
        schema.fields.get(field)?.type === "relation" ? [] : [{ path: `expand.${position}`, message: `"${field}" is not a relation field of ${settings.schema}` }],
      ),
      ...(settings.sort ? unknownFieldIssues([settings.sort.replace(/^-/, "")], schema, "sort", "sort field") : []),
    ];
  },
});
