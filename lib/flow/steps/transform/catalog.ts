import type { StepCatalogEntry } from "../step-catalog";

/** The transform step as the editor knows it (its settings schema: definition.ts). */
export const transformCatalog = {
  id: "transform",
  label: "Transform",
  description: "Reshape data with a JMESPath expression over the whole context; it cannot change data.",
  defaults: { expression: "" },
  editor: {},
} satisfies StepCatalogEntry<"transform">;
