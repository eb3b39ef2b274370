import { getPlatformDb } from "@/lib/platform-db/client";
import { localMailbox } from "@/lib/platform-db/schema";
import { newId } from "@/lib/ids";
import { formatMailAddress } from "./mail-address";
import { MAIL_TIMEOUT_MS, type MailMessage, type MailTransport, type SendMailOptions, type SendMailResult } from "./mail-transport";
import { sendWithinTimeLimit } from "./send-within-time-limit";
import { validateMailMessage } from "./validate-mail-message";

export interface LocalMailboxTransportOptions {
  /** The project the mail belongs to; null for platform mail (invitations, ...). */
  projectId: string | null;
  from: string;
  timeoutMs?: number;
}

/** ids.ts has no kind for stored mail; reuse its time-sortable format under our own prefix. */
function newLocalMailId(): string {
  return `mail_${newId("record").slice("rec_".length)}`;
}

/**
 * Development delivery: validates exactly like a real transport, then stores the message in the
 * platform database's local_mailbox table, where the dashboard (listLocalMailbox) shows it.
 * Reply-To and extra headers are validated but not stored (the table has no columns for them).
 */
export function createLocalMailboxTransport(options: LocalMailboxTransportOptions): MailTransport {
  const timeoutMs = options.timeoutMs ?? MAIL_TIMEOUT_MS;

  async function send(message: MailMessage, sendOptions: SendMailOptions = {}): Promise<SendMailResult> {
    const prepared = validateMailMessage(message, { from: options.from });
    return sendWithinTimeLimit(
      async () => {
        const db = await getPlatformDb();
        const id = newLocalMailId();
        await db.insert(localMailbox).values({
          id,
          projectId: options.projectId,
          from: formatMailAddress(prepared.from),
          to: prepared.to.map(formatMailAddress),
          subject: prepared.subject,
          html: prepared.html ?? null,
          text: prepared.text ?? null,
        });
        return { messageId: id };
      },
      { timeoutMs, signal: sendOptions.signal, what: "storing mail in the local mailbox" },
    );
  }

  return { kind: "local", send };
}
