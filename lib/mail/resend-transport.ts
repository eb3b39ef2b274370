import { Resend } from "resend";
import { AppError, isAppError } from "@/lib/errors";
import { log, MASK, redactText } from "@/lib/log";
import { formatMailAddress } from "./mail-address";
import { MAIL_TIMEOUT_MS, type MailMessage, type MailTransport, type SendMailOptions, type SendMailResult } from "./mail-transport";
import { sendWithinTimeLimit } from "./send-within-time-limit";
import { validateMailMessage } from "./validate-mail-message";

export const RESEND_API_BASE_URL = "https://api.resend.com";

export interface ResendTransportOptions {
  apiKey: string;
  /** Default sender; Resend requires one on a domain verified in that account. */
  from: string;
  /** The API's base URL; tests point it at a loopback server. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** Sends through the Resend API with the official client. */
export function createResendTransport(options: ResendTransportOptions): MailTransport {
  if (!options.apiKey) throw new AppError("internal", "a Resend API key is required");
  const timeoutMs = options.timeoutMs ?? MAIL_TIMEOUT_MS;
  // An explicit base URL, so that RESEND_BASE_URL in the environment cannot silently redirect mail.
  const client = new Resend(options.apiKey, { baseUrl: (options.baseUrl ?? RESEND_API_BASE_URL).replace(/\/+$/, "") });

  async function send(message: MailMessage, sendOptions: SendMailOptions = {}): Promise<SendMailResult> {
    const prepared = validateMailMessage(message, { from: options.from });
    return sendWithinTimeLimit(
      async (deadline) => {
        const payload = {
          from: formatMailAddress(prepared.from),
          to: prepared.to.map(formatMailAddress),
          subject: prepared.subject,
          ...(prepared.html !== undefined ? { html: prepared.html } : {}),
          ...(prepared.text !== undefined ? { text: prepared.text } : {}),
          ...(prepared.replyTo ? { replyTo: formatMailAddress(prepared.replyTo) } : {}),
          ...(Object.keys(prepared.headers).length > 0 ? { headers: prepared.headers } : {}),
        };
        const { data, error } = await client.emails.send(payload as Parameters<Resend["emails"]["send"]>[0], { signal: deadline });
        // Already answered with a timeout; the client's own "could not fetch" is noise.
        if (deadline.aborted) throw deadline.reason;
        if (error || !data) throw resendFailure(error, options.apiKey);
        return { messageId: data.id };
      },
      { timeoutMs, signal: sendOptions.signal, what: "sending mail through Resend" },
    );
  }

  return { kind: "resend", send };
}

function resendFailure(error: { message?: string; statusCode?: number | null; name?: string } | null, apiKey: string): AppError {
  if (isAppError(error)) return error;
  const status = error?.statusCode ?? null;
  const detail = redactText(String(error?.message ?? "no details"))
    .split(apiKey)
    .join(MASK)
    .slice(0, 300);
  log.warn("sending mail through Resend failed", { status, name: error?.name, error: detail });
  if (status === null) return new AppError("unavailable", "could not reach the Resend API");
  if (status === 401 || status === 403) return new AppError("unavailable", `Resend rejected the API key (${status})`);
  if (status === 429) return new AppError("unavailable", "Resend is rate limiting this account (429); try again later");
  if (status >= 500) return new AppError("unavailable", `the Resend API failed (${status})`);
  return new AppError("unavailable", `Resend refused the message (${status}): ${detail}`);
}
