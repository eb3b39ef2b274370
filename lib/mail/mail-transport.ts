/**
 * One interface for every way the platform sends mail: the project's SMTP server, Resend, or the
 * local mailbox the dashboard shows in development. Callers pick one with getPlatformMailTransport
 * or getProjectMailTransport and never branch on the kind.
 */
export type MailTransportKind = "smtp" | "resend" | "local";

export interface MailMessage {
  /** A single address (`a@b.example` or `Name <a@b.example>`); defaults to the transport's sender. */
  from?: string;
  /** One or more single addresses. */
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  replyTo?: string;
  /** Extra headers (`X-Campaign: spring`); routing and structure headers (To, Bcc, Content-Type...) are refused. */
  headers?: Record<string, string>;
}

export interface SendMailOptions {
  /** Aborting (a flow's run budget running out) stops the send with AppError("timeout"). */
  signal?: AbortSignal;
}

export interface SendMailResult {
  messageId: string;
}

export interface MailTransport {
  readonly kind: MailTransportKind;
  /**
   * Sends one message. Throws AppError: `validation_failed` (bad address, CR/LF in a header, no
   * recipient, no body), `timeout` (the time limit or the abort signal), `unavailable` (the server
   * or API refused or could not be reached; the message names no secret).
   */
  send(message: MailMessage, options?: SendMailOptions): Promise<SendMailResult>;
}

/** The outbound limit (docs/DESIGN.md section 6). */
export const MAIL_TIMEOUT_MS = 10_000;
export const MAX_RECIPIENTS = 50;
export const MAX_BODY_CHARS = 1_000_000;
