import type { StepCatalogEntry } from "../step-catalog";

/** The create step as the editor knows it (its settings schema: definition.ts). */
export const createCatalog = {
  id: "create",
  label: "Create record",
  description: "Create a record from field values (templates); required, type, unique and relation rules apply.",
  defaults: { schema: "", values: {} },
  editor: { rows: "values" },
} satisfies StepCatalogEntry<"create">;
