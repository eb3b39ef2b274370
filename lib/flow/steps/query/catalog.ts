import type { StepCatalogEntry } from "../step-catalog";

/** The query step as the editor knows it (its settings schema: definition.ts). */
export const queryCatalog = {
  id: "query",
  label: "Query records",
  description: "Find records of a schema by equality filters; the output is the array of records.",
  defaults: { schema: "", filters: "", limit: 20, sort: null, expand: [] },
  editor: { numbers: { limit: "required" }, lists: ["expand"], emptyIsNull: ["sort"] },
} satisfies StepCatalogEntry<"query">;
