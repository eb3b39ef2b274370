import { issuesFromZod, validationError } from "@/lib/errors";
import { getPlatformMailFrom } from "./get-platform-mail-transport";
import { mailSettingsSchema, type MailSettings } from "./mail-settings";
import type { MailTransport } from "./mail-transport";
import { createLocalMailboxTransport } from "./local-mailbox-transport";
import { createSmtpTransport } from "./smtp-transport";

/**
 * The transport for a project's mail (flow email steps, end-user verification): its own SMTP server
 * when settings are stored (connections pass the outbound guard: a private host must be listed in
 * OUTBOUND_ALLOWED_HOSTS), otherwise the local mailbox tagged with the project id.
 */
export function getProjectMailTransport(options: { projectId: string; settings: MailSettings | null; timeoutMs?: number }): MailTransport {
  if (options.settings === null) {
    return createLocalMailboxTransport({ projectId: options.projectId, from: getPlatformMailFrom(), timeoutMs: options.timeoutMs });
  }
  const parsed = mailSettingsSchema.safeParse(options.settings);
  if (!parsed.success) throw validationError("the project's mail settings are invalid", issuesFromZod(parsed.error, "mail"));
  return createSmtpTransport(parsed.data, { timeoutMs: options.timeoutMs });
}
