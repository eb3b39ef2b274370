import { getInvocationBaseUrl } from "@/lib/http/invocation-origin";
import { getProjectMailTransport } from "@/lib/mail/get-project-mail-transport";
import { getProjectMailSettings } from "@/lib/projects/get-project-mail-settings";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";

export type EndUserMailKind = "verification" | "password_reset";

export interface SendEndUserMailOptions {
  project: ProjectRow;
  /** The auth schema's name. */
  schema: string;
  to: string;
  kind: EndUserMailKind;
  /** The single-use token the mail carries. */
  token: string;
}

const CONTENT: Record<EndUserMailKind, { subject: string; path: string; intro: string; action: string; validity: string; ignore: string }> = {
  verification: {
    subject: "Confirm your email address",
    path: "verify",
    intro: "Please confirm your email address.",
    action: "Confirm my email address",
    validity: "The link is valid for 48 hours and can be used once.",
    ignore: "If you did not create an account, you can ignore this email.",
  },
  password_reset: {
    subject: "Reset your password",
    path: "reset-password",
    intro: "Someone (hopefully you) asked to reset the password of your account.",
    action: "Choose a new password",
    validity: "The link is valid for 1 hour and can be used once.",
    ignore: "If you did not ask for this, you can ignore this email: your password stays unchanged.",
  },
};

/**
 * The link a mail carries: `<base>/auth/<projectId>/<schema>/<verify|reset-password>?token=…`, on the
 * invocation origin when INVOCATION_URL is set (end users never need the dashboard's host), else APP_URL.
 */
export function endUserMailLink(options: { projectId: string; schema: string; kind: EndUserMailKind; token: string }): string {
  const path = CONTENT[options.kind].path;
  return `${getInvocationBaseUrl()}/auth/${encodeURIComponent(options.projectId)}/${encodeURIComponent(options.schema)}/${path}?token=${encodeURIComponent(options.token)}`;
}

/**
 * Sends a verification or password-reset mail through the project's mail settings (its SMTP server,
 * else the local mailbox). The mail holds the link and the token itself: a site takes the token
 * from the link (or the user pastes it) and POSTs it to verify-email or reset-password.
 * Throws the transport's AppError (unavailable, timeout, validation_failed).
 */
export async function sendEndUserMail(options: SendEndUserMailOptions): Promise<void> {
  const content = CONTENT[options.kind];
  const link = endUserMailLink({ projectId: options.project.id, schema: options.schema, kind: options.kind, token: options.token });
  const transport = getProjectMailTransport({ projectId: options.project.id, settings: getProjectMailSettings(options.project) });
  const href = escapeHtml(link);
  await transport.send({
    to: [options.to],
    subject: content.subject,
    text: `${content.intro}\n\n${content.action}:\n${link}\n\nOr use this code: ${options.token}\n\n${content.validity}\n${content.ignore}\n`,
    html:
      `<p>${content.intro}</p>` +
      `<p><a href="${href}">${content.action}</a></p>` +
      `<p>Or use this code: <code>${options.token}</code></p>` +
      `<p>${content.validity}<br>${content.ignore}</p>`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
