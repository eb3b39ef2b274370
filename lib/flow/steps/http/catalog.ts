import type { StepCatalogEntry } from "../step-catalog";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The http step as the editor knows it (its settings schema: definition.ts). */
export const httpCatalog = {
  id: "http",
  label: "HTTP request",
  description: "Call an outside API; the output is {status, ok, body}.",
  defaults: { method: "GET" as const, url: "", headers: {}, body: "" },
  editor: { rows: "headers" },
} satisfies StepCatalogEntry<"http">;
