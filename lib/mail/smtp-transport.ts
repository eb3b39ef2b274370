import net from "node:net";
import tls from "node:tls";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { AppError, isAppError, issuesFromZod, validationError } from "@/lib/errors";
import { log } from "@/lib/log";
import { assertPublicDestination } from "@/lib/outbound/assert-public-destination";
import type { ConnectGuardOptions } from "@/lib/outbound/guarded-socket";
import type { MailAddress } from "./mail-address";
import { mailSettingsSchema, type MailSettings } from "./mail-settings";
import { MAIL_TIMEOUT_MS, type MailMessage, type MailTransport, type SendMailOptions, type SendMailResult } from "./mail-transport";
import { sendWithinTimeLimit } from "./send-within-time-limit";
import { validateMailMessage } from "./validate-mail-message";

const TLS_CERTIFICATE_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|EPROTO/;

export interface SmtpTransportOptions {
  timeoutMs?: number;
  /**
   * Skip the outbound guard. Only for a server the operator configured (SMTP_URL); a project's
   * settings come from its owner and must not reach private addresses unless OUTBOUND_ALLOWED_HOSTS
   * lists them.
   */
  trustedDestination?: boolean;
  /** Seams of the outbound guard (tests inject a resolver and watch the dialled address); the policy always applies. */
  guard?: ConnectGuardOptions;
}

/**
 * Sends through an SMTP server with nodemailer; one connection per message. The connection goes to
 * the address the outbound guard checked (no second DNS lookup), so a project's SMTP host cannot
 * point the platform at its own network.
 */
export function createSmtpTransport(settings: MailSettings, options: SmtpTransportOptions = {}): MailTransport {
  const parsed = mailSettingsSchema.safeParse(settings);
  if (!parsed.success) throw validationError("invalid SMTP settings", issuesFromZod(parsed.error, "mail"));
  const valid = parsed.data;
  const timeoutMs = options.timeoutMs ?? MAIL_TIMEOUT_MS;
  const host = valid.host.replace(/^\[|\]$/g, "");
  const where = `${valid.host}:${valid.port}`;

  async function send(message: MailMessage, sendOptions: SendMailOptions = {}): Promise<SendMailResult> {
    const prepared = validateMailMessage(message, { from: valid.from });
    return sendWithinTimeLimit(
      async (deadline) => {
        const sockets: net.Socket[] = [];
        const dropSockets = () => sockets.forEach((socket) => socket.destroy());
        deadline.addEventListener("abort", dropSockets, { once: true });
        const transporter = nodemailer.createTransport({
          host,
          port: valid.port,
          secure: valid.secure,
          auth: valid.user === undefined ? undefined : { user: valid.user, pass: valid.password },
          connectionTimeout: timeoutMs,
          greetingTimeout: timeoutMs,
          socketTimeout: timeoutMs,
          dnsTimeout: timeoutMs,
          // Message content comes from flows: never let it make nodemailer read files or fetch URLs.
          disableFileAccess: true,
          disableUrlAccess: true,
          logger: false,
          // We open the socket ourselves: to the address the guard checked, and so that the deadline
          // can destroy it mid-conversation.
          getSocket: (_socketOptions, callback) => {
            openSocket({ host, port: valid.port, secure: valid.secure, trusted: options.trustedDestination === true, guard: options.guard ?? {}, deadline, sockets }).then(
              (socket) => callback(null, { connection: socket, secured: valid.secure }),
              (error: Error) => callback(error, undefined as never),
            );
          },
        } as SMTPTransport.Options);
        try {
          const info = await transporter.sendMail({
            from: toNodemailer(prepared.from),
            to: prepared.to.map(toNodemailer),
            replyTo: prepared.replyTo ? toNodemailer(prepared.replyTo) : undefined,
            subject: prepared.subject,
            text: prepared.text,
            html: prepared.html,
            headers: prepared.headers,
          });
          if (info.rejected.length > 0) {
            log.warn("SMTP server refused some recipients", { host: where, rejected: info.rejected.map(String) });
          }
          return { messageId: info.messageId };
        } catch (error) {
          if (deadline.aborted) throw deadline.reason;
          throw smtpFailure(error, where);
        } finally {
          deadline.removeEventListener("abort", dropSockets);
          dropSockets();
          transporter.close();
        }
      },
      { timeoutMs, signal: sendOptions.signal, what: `sending mail through ${where}` },
    );
  }

  return { kind: "smtp", send };
}

async function openSocket(target: {
  host: string;
  port: number;
  secure: boolean;
  trusted: boolean;
  guard: ConnectGuardOptions;
  deadline: AbortSignal;
  sockets: net.Socket[];
}): Promise<net.Socket> {
  // Checked on every connection, not only when the settings were saved: the name may resolve elsewhere now.
  const destination = target.trusted
    ? undefined
    : await assertPublicDestination(target.host, target.port, { signal: target.deadline, lookup: target.guard.lookup, allowedHosts: target.guard.allowedHosts });
  const address = destination?.address ?? target.host;
  if (target.deadline.aborted) throw new Error("the send was cut off before connecting");
  if (destination) {
    target.guard.beforeConnect?.({ address, family: destination.family, port: target.port, servername: net.isIP(target.host) ? undefined : target.host });
  }
  const socket = target.secure
    ? tls.connect({ host: address, port: target.port, servername: net.isIP(target.host) ? undefined : target.host })
    : net.connect({ host: address, port: target.port });
  target.sockets.push(socket);
  const readyEvent = target.secure ? "secureConnect" : "connect";
  return new Promise<net.Socket>((resolve, reject) => {
    const ready = () => {
      socket.off("error", failed);
      resolve(socket);
    };
    const failed = (error: Error) => {
      socket.off(readyEvent, ready);
      socket.destroy();
      reject(error);
    };
    socket.once(readyEvent, ready);
    socket.once("error", failed);
  });
}

function toNodemailer(mailbox: MailAddress): { name: string; address: string } {
  return { name: mailbox.name ?? "", address: mailbox.address };
}

/** A public error that says what went wrong without the server's words or any credential. */
function smtpFailure(error: unknown, where: string): AppError {
  if (isAppError(error)) return error;
  const details = error as { code?: string; responseCode?: number; command?: string };
  const code = typeof details.code === "string" ? details.code : undefined;
  const responseCode = typeof details.responseCode === "number" ? details.responseCode : undefined;
  // The message, not the stack: these are expected operational failures, not bugs.
  const reason = error instanceof Error ? error.message : String(error);
  log.warn("sending mail over SMTP failed", { host: where, code, responseCode, command: details.command, error: reason });
  const suffix = responseCode ? ` (${responseCode})` : "";
  if (code === "ETIMEDOUT") return new AppError("timeout", `the SMTP server at ${where} did not answer in time`, { cause: error });
  if (code === "EAUTH") return new AppError("unavailable", `the SMTP server at ${where} rejected the login${suffix}`, { cause: error });
  if (code === "EENVELOPE") return new AppError("unavailable", `the SMTP server at ${where} refused the sender or the recipients${suffix}`, { cause: error });
  if (code === "EMESSAGE") return new AppError("unavailable", `the SMTP server at ${where} refused the message${suffix}`, { cause: error });
  if (code === "ETLS" || (code !== undefined && TLS_CERTIFICATE_ERRORS.test(code))) {
    return new AppError("unavailable", `could not establish TLS with the SMTP server at ${where}`, { cause: error });
  }
  if (responseCode) return new AppError("unavailable", `the SMTP server at ${where} answered with an error${suffix}`, { cause: error });
  return new AppError("unavailable", `could not connect to the SMTP server at ${where}`, { cause: error });
}
