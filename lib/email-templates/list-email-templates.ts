import { asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { emailTemplates } from "@/lib/platform-db/schema";
import { toEmailTemplateView, type EmailTemplateView } from "./email-template-input";

export async function listEmailTemplates(options: { projectId: string }): Promise<EmailTemplateView[]> {
  const db = await getPlatformDb();
  const rows = await db.select().from(emailTemplates).where(eq(emailTemplates.projectId, options.projectId)).orderBy(asc(emailTemplates.name));
  return rows.map(toEmailTemplateView);
}
