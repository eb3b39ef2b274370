import { decryptSecret } from "@/lib/crypto/secrets";
import { mailSettingsSchema, type MailSettings } from "@/lib/mail/mail-settings";
import type { ProjectRow } from "./get-project-or-throw";

/** The project's decrypted SMTP settings, or null when mail goes to the local mailbox. */
export function getProjectMailSettings(project: ProjectRow): MailSettings | null {
  if (!project.mailSettingsEncrypted) return null;
  return mailSettingsSchema.parse(JSON.parse(decryptSecret(project.mailSettingsEncrypted, { projectId: project.id })));
}
