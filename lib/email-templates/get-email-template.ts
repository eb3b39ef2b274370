import { and, eq, or } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { emailTemplates } from "@/lib/platform-db/schema";
import { toEmailTemplateView, type EmailTemplateView } from "./email-template-input";

/** By id or by name (flows name templates; the API addresses them by id). */
export async function findEmailTemplate(options: { projectId: string; idOrName: string }): Promise<EmailTemplateView | null> {
  const db = await getPlatformDb();
  const [row] = await db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.projectId, options.projectId), or(eq(emailTemplates.id, options.idOrName), eq(emailTemplates.name, options.idOrName))))
    .limit(1);
  return row ? toEmailTemplateView(row) : null;
}

export async function getEmailTemplateOrThrow(options: { projectId: string; idOrName: string }): Promise<EmailTemplateView> {
  const template = await findEmailTemplate(options);
  if (!template) throw new AppError("not_found", "email template not found");
  return template;
}
