import type { StepCatalogEntry } from "../step-catalog";

/** The email step as the editor knows it (its settings schema: definition.ts). */
export const emailCatalog = {
  id: "email",
  label: "Send email",
  description: "Send an email from a saved template or an inline subject and body.",
  defaults: { to: "", template: null, subject: "", body: "", format: "text" as const },
  editor: { emptyIsNull: ["template"], noOutput: true },
} satisfies StepCatalogEntry<"email">;
