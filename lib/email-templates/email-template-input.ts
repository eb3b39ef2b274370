import { z } from "zod";

/** A saved email template: subject, HTML and text bodies, each a template rendered against a run's context. */
export const emailTemplateFields = {
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "must be 1–64 lowercase letters, digits, dashes or underscores"),
  subject: z
    .string()
    .min(1, "a subject is required")
    .max(500)
    .refine((subject) => !/[\r\n]/.test(subject), { message: "must be one line" }),
  html: z.string().max(200_000).default(""),
  text: z.string().max(200_000).default(""),
};

export const emailTemplateInput = z
  .object(emailTemplateFields)
  .strict()
  .refine((template) => template.html.trim() !== "" || template.text.trim() !== "", { message: "give an HTML or a text body", path: ["html"] });

export const emailTemplatePatch = z.object(emailTemplateFields).partial().strict();

export interface EmailTemplateView {
  id: string;
  name: string;
  subject: string;
  html: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export function toEmailTemplateView(row: { id: string; name: string; subject: string; html: string; text: string; createdAt: Date; updatedAt: Date }): EmailTemplateView {
  return { id: row.id, name: row.name, subject: row.subject, html: row.html, text: row.text, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}
