import { z } from "zod";
import { headersSchema, templateSchema, urlTemplateSchema } from "../shared/fields";
import { defineStep } from "../step-definition";
import { webhookCatalog } from "./catalog";

/**
 * POSTs to a URL without waiting for the reply (the run goes on; a failed delivery is logged).
 * An empty body sends the whole trigger payload as JSON. Output: none (null).
 */
export const webhookStep = defineStep({
  ...webhookCatalog,
  settings: z.object({
    url: urlTemplateSchema,
    headers: headersSchema.default({}),
    /** Empty: the whole trigger payload as JSON. */
    body: templateSchema(100_000)
      .nullish()
      .transform((body) => body ?? ""),
  }),
  secretFields: ["url", "headers", "body"],
});
