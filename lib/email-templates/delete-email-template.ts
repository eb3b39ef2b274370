import { and, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { emailTemplates } from "@/lib/platform-db/schema";
import { getEmailTemplateOrThrow } from "./get-email-template";

export async function deleteEmailTemplate(options: { projectId: string; idOrName: string }): Promise<void> {
  const current = await getEmailTemplateOrThrow(options);
  const db = await getPlatformDb();
  await db.delete(emailTemplates).where(and(eq(emailTemplates.id, current.id), eq(emailTemplates.projectId, options.projectId)));
}
