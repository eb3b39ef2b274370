import { ConfigError, getConfig } from "@/lib/config";
import { isSingleMailAddress } from "./mail-address";
import { mailSettingsFromSmtpUrl } from "./mail-settings";
import type { MailTransport } from "./mail-transport";
import { createLocalMailboxTransport } from "./local-mailbox-transport";
import { createResendTransport } from "./resend-transport";
import { createSmtpTransport } from "./smtp-transport";

/** The platform's sender: MAIL_FROM, else `Flowpoint <no-reply@host of APP_URL>` (localhost without one). */
export function getPlatformMailFrom(): string {
  const config = getConfig();
  if (config.MAIL_FROM) {
    if (!isSingleMailAddress(config.MAIL_FROM)) throw new ConfigError("MAIL_FROM must be one email address (Name <a@b.example> or a@b.example)");
    return config.MAIL_FROM;
  }
  const host = config.APP_URL ? new URL(config.APP_URL).hostname : "localhost";
  return `Flowpoint <no-reply@${host}>`;
}

/**
 * The transport for platform mail (workspace invitations, ...): SMTP_URL → SMTP, RESEND_API_KEY →
 * Resend, otherwise the local mailbox (projectId null).
 */
export function getPlatformMailTransport(): MailTransport {
  const config = getConfig();
  const from = getPlatformMailFrom();
  if (config.SMTP_URL) {
    let settings;
    try {
      settings = mailSettingsFromSmtpUrl(config.SMTP_URL, from);
    } catch {
      throw new ConfigError("SMTP_URL is not a usable smtp:// or smtps:// URL (host, optional port, user and password together)");
    }
    // The operator chose this server: it may well be on the private network.
    return createSmtpTransport(settings, { trustedDestination: true });
  }
  if (config.RESEND_API_KEY) return createResendTransport({ apiKey: config.RESEND_API_KEY, from });
  return createLocalMailboxTransport({ projectId: null, from });
}
