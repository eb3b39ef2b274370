import { AppError, issuesFromZod } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { emailTemplates } from "@/lib/platform-db/schema";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import { emailTemplateInput, toEmailTemplateView, type EmailTemplateView } from "./email-template-input";

export async function createEmailTemplate(options: { projectId: string; input: unknown }): Promise<EmailTemplateView> {
  const parsed = emailTemplateInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid email template", { issues: issuesFromZod(parsed.error) });
  const db = await getPlatformDb();
  try {
    const [row] = await db
      .insert(emailTemplates)
      .values({ id: newId("emailTemplate"), projectId: options.projectId, ...parsed.data })
      .returning();
    return toEmailTemplateView(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `an email template named ${parsed.data.name} already exists`, { field: "name" });
    throw error;
  }
}
