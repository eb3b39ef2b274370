import type { StepCatalogEntry } from "../step-catalog";

/** The update step as the editor knows it (its settings schema: definition.ts). */
export const updateCatalog = {
  id: "update",
  label: "Update record",
  description: "Update the first record that matches the filters with field values (templates).",
  defaults: { schema: "", filters: "", values: {} },
  editor: { rows: "values" },
} satisfies StepCatalogEntry<"update">;
