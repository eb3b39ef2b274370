import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { headersSchema, templateSchema, urlTemplateSchema } from "../shared/fields";
import { defineStep } from "../step-definition";
import { HTTP_METHODS, httpCatalog } from "./catalog";

/**
 * Calls an outside HTTP API (egress-checked, no redirects, 10 s, reply captured up to 256 KB).
 * Output: `{status, ok, body}` with JSON replies parsed; a non-2xx reply is data, not a failure.
 */
export const httpStep = defineStep({
  ...httpCatalog,
  settings: z.object({
    method: z.enum(HTTP_METHODS).default("GET"),
    /** Values inserted after the start of the URL are percent-encoded. */
    url: urlTemplateSchema,
    headers: headersSchema.default({}),
    /** Body template (not sent with GET). JSON content type unless a content-type header is set and the body is JSON. */
    body: templateSchema(100_000)
      .nullish()
      .transform((body) => body ?? ""),
  }),
  secretFields: ["url", "headers", "body"],
  timeoutMs: FLOW_LIMITS.outboundTimeoutMs,
  refine(settings, ctx) {
    if (settings.method === "GET" && settings.body.trim() !== "") {
      ctx.addIssue({ code: "custom", path: ["body"], message: "a GET request has no body; choose POST, PUT, PATCH or DELETE" });
    }
  },
});
