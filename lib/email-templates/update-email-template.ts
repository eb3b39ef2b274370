import { and, eq } from "drizzle-orm";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { emailTemplates } from "@/lib/platform-db/schema";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import { emailTemplateInput, emailTemplatePatch, toEmailTemplateView, type EmailTemplateView } from "./email-template-input";
import { getEmailTemplateOrThrow } from "./get-email-template";

export async function updateEmailTemplate(options: { projectId: string; idOrName: string; patch: unknown }): Promise<EmailTemplateView> {
  const patch = emailTemplatePatch.safeParse(options.patch);
  if (!patch.success) throw new AppError("validation_failed", "invalid email template", { issues: issuesFromZod(patch.error) });
  const current = await getEmailTemplateOrThrow({ projectId: options.projectId, idOrName: options.idOrName });
  // The raw patch, not patch.data: defaults of the full schema must not fill fields the caller left out.
  const merged = emailTemplateInput.safeParse({ name: current.name, subject: current.subject, html: current.html, text: current.text, ...(options.patch as object) });
  if (!merged.success) throw new AppError("validation_failed", "invalid email template", { issues: issuesFromZod(merged.error) });
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .update(emailTemplates)
      .set({ ...merged.data, updatedAt: new Date() })
      .where(and(eq(emailTemplates.id, current.id), eq(emailTemplates.projectId, options.projectId)))
      .returning();
    if (!row) throw new AppError("not_found", "email template not found");
    return toEmailTemplateView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `an email template named ${merged.data.name} already exists`, { field: "name" });
    throw error;
  }
}
