import { decryptSecret } from "@/lib/crypto/secrets";
import { mailSettingsSchema, type MailSettings } from "@/lib/mail/mail-settings";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";

/**
 * The project's stored SMTP settings, decrypted, for the server only: the settings form shows the
 * non-secret fields and keeps the stored password when the owner leaves that field empty.
 */
export function readStoredMailSettings(row: ProjectRow): MailSettings | null {
  if (!row.mailSettingsEncrypted) return null;
  const parsed = mailSettingsSchema.safeParse(JSON.parse(decryptSecret(row.mailSettingsEncrypted, { projectId: row.id })));
  return parsed.success ? parsed.data : null;
}

/** What the browser may see of them: everything but the password, and whether one is stored. */
export interface MailSettingsView {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  from: string;
  hasPassword: boolean;
}

export function toMailSettingsView(settings: MailSettings | null): MailSettingsView | null {
  if (!settings) return null;
  return { host: settings.host, port: settings.port, secure: settings.secure, user: settings.user ?? "", from: settings.from, hasPassword: settings.password !== undefined };
}
