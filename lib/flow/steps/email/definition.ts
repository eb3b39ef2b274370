import { z } from "zod";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { templateSchema } from "../shared/fields";
import { defineStep } from "../step-definition";
import { emailCatalog } from "./catalog";

/**
 * Sends an email through the project's mail server: a saved template by name, or an inline subject
 * and body. Every field accepts placeholders; values placed into HTML are escaped. Output: none (null).
 */
export const emailStep = defineStep({
  ...emailCatalog,
  settings: z.object({
    /** Recipients, separated by commas or semicolons. */
    to: templateSchema(2_000).trim().min(1, "enter a recipient"),
    /** The name of a saved email template; when set, subject and body are not used. */
    template: z
      .string()
      .trim()
      .max(128)
      .nullish()
      .transform((name) => name || null),
    subject: templateSchema(998)
      .nullish()
      .transform((subject) => subject ?? ""),
    body: templateSchema(100_000)
      .nullish()
      .transform((body) => body ?? ""),
    /** How the inline body is sent: plain text, or HTML (inserted values escaped). */
    format: z.enum(["text", "html"]).default("text"),
  }),
  secretFields: ["body"],
  timeoutMs: FLOW_LIMITS.mailTimeoutMs,
  refine(settings, ctx) {
    if (settings.template !== null) return;
    if (settings.subject.trim() === "") ctx.addIssue({ code: "custom", path: ["subject"], message: "enter a subject or choose a saved template" });
    if (settings.body.trim() === "") ctx.addIssue({ code: "custom", path: ["body"], message: "enter a body or choose a saved template" });
  },
});
