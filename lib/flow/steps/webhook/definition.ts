import { z } from "zod";
import { headersSchema, templateSchema, urlTemplateSchema } from "../shared/fields";
import { defineStep } from "../step-definition";

/**
 * POSTs to a URL without waiting for the reply (the run goes on; a failed delivery is logged).
 * An empty body sends the whole trigger payload as JSON. Output: none (null).
 */
export const webhookStep = defineStep({
  id: "webhook",
  label: "Webhook",
  description: "Notify a URL with a POST; the reply is not captured.",
  settings: z.object({
    url: urlTemplateSchema,
    headers: headersSchema.default({}),
    /** Empty: the whole trigger payload as JSON. */
    body: templateSchema(100_000)
      .nullish()
      .transform((body) => body ?? ""),
  }),
  secretFields: ["url", "headers", "body"],
  defaults: { url: "", headers: {}, body: "" },
  editor: { rows: "headers", noOutput: true },
});
