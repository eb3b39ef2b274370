import { AppError, isAppError } from "@/lib/errors";
import type { MailSettings } from "@/lib/mail/mail-settings";
import { assertPublicDestination, type DestinationCheckOptions } from "@/lib/outbound/safe-fetch";

/**
 * A project's SMTP server is outbound traffic like any flow call: its host must be public or named in
 * OUTBOUND_ALLOWED_HOSTS. Checked when the settings are saved (a clear 422 on the field) and again by
 * the transport on every connection (the name may resolve elsewhere later). The platform's own
 * SMTP_URL is the operator's choice and never passes through here.
 */
export async function checkMailDestination(settings: MailSettings, options: Pick<DestinationCheckOptions, "lookup" | "allowedHosts"> = {}): Promise<void> {
  try {
    await assertPublicDestination(settings.host.replace(/^\[|\]$/g, ""), settings.port, options);
  } catch (error) {
    const message = isAppError(error) ? error.message : "the SMTP host is not allowed";
    throw new AppError("validation_failed", message, { issues: [{ path: "mail.host", message }], cause: error });
  }
}
