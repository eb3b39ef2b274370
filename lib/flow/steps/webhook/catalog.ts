import type { StepCatalogEntry } from "../step-catalog";

/** The webhook step as the editor knows it (its settings schema: definition.ts). */
export const webhookCatalog = {
  id: "webhook",
  label: "Webhook",
  description: "Notify a URL with a POST; the reply is not captured.",
  defaults: { url: "", headers: {}, body: "" },
  editor: { rows: "headers", noOutput: true },
} satisfies StepCatalogEntry<"webhook">;
