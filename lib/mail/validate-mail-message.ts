import { z } from "zod";
import { issuesFromZod, validationError } from "@/lib/errors";
import { parseMailAddress, type MailAddress } from "./mail-address";
import { MAX_BODY_CHARS, MAX_RECIPIENTS, type MailMessage } from "./mail-transport";

/** A message that passed validation, addresses parsed, sender resolved. */
export interface PreparedMailMessage {
  from: MailAddress;
  to: MailAddress[];
  replyTo?: MailAddress;
  subject: string;
  html?: string;
  text?: string;
  headers: Record<string, string>;
}

const LINE_BREAK = /[\r\n]/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// RFC 5322 field name: printable ASCII except the colon.
const HEADER_NAME = /^[!-9;-~]{1,76}$/;
// Headers that decide where a message goes or how it is parsed belong to the transport, never to a caller.
const RESERVED_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "sender",
  "reply-to",
  "subject",
  "return-path",
  "date",
  "message-id",
  "content-type",
  "content-transfer-encoding",
  "content-disposition",
  "mime-version",
]);

function headerSafe(label: string) {
  return z
    .string()
    .refine((value) => !LINE_BREAK.test(value), { message: `${label} must not contain CR or LF (line breaks)` })
    .refine((value) => !CONTROL.test(value), { message: `${label} must not contain control characters` });
}

function singleAddress(label: string) {
  return headerSafe(label).refine((value) => LINE_BREAK.test(value) || CONTROL.test(value) || parseMailAddress(value) !== undefined, {
    message: `${label} must be one valid email address`,
  });
}

const mailMessageSchema = z
  .object({
    from: singleAddress("the sender").optional(),
    to: z.array(singleAddress("a recipient")).min(1, "at least one recipient is required").max(MAX_RECIPIENTS, `at most ${MAX_RECIPIENTS} recipients`),
    subject: headerSafe("the subject").pipe(z.string().max(998, "the subject is longer than 998 characters")),
    html: z.string().max(MAX_BODY_CHARS).optional(),
    text: z.string().max(MAX_BODY_CHARS).optional(),
    replyTo: singleAddress("the reply-to address").optional(),
    headers: z.record(z.string(), headerSafe("a header value").pipe(z.string().max(998, "a header value is longer than 998 characters"))).optional(),
  })
  .superRefine((message, ctx) => {
    if (message.html === undefined && message.text === undefined) {
      ctx.addIssue({ code: "custom", path: ["text"], message: "a message needs a text or an html body" });
    }
    for (const name of Object.keys(message.headers ?? {})) {
      if (LINE_BREAK.test(name)) {
        ctx.addIssue({ code: "custom", path: ["headers", name], message: "a header name must not contain CR or LF (line breaks)" });
      } else if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: "custom", path: ["headers", name], message: "a header name is printable ASCII without spaces or colons" });
      } else if (RESERVED_HEADERS.has(name.toLowerCase())) {
        ctx.addIssue({ code: "custom", path: ["headers", name], message: `the ${name} header is set by the mail transport` });
      }
    }
  });

/**
 * Validates a message before any connection is made. Throws AppError("validation_failed") with
 * issue paths (`to.1`, `headers.X-Foo`) for an invalid address, CR/LF in any address, subject or
 * header, a missing recipient or body.
 */
export function validateMailMessage(message: MailMessage, defaults: { from: string }): PreparedMailMessage {
  const result = mailMessageSchema.safeParse(message);
  if (!result.success) throw validationError("invalid email message", issuesFromZod(result.error));
  const valid = result.data;
  const from = parseMailAddress(valid.from ?? defaults.from);
  if (!from) throw validationError("invalid email message", [{ path: "from", message: "the default sender is not one valid email address" }]);
  const prepared: PreparedMailMessage = {
    from,
    to: valid.to.map((address) => parseMailAddress(address) as MailAddress),
    subject: valid.subject,
    headers: valid.headers ?? {},
  };
  if (valid.replyTo !== undefined) prepared.replyTo = parseMailAddress(valid.replyTo);
  if (valid.html !== undefined) prepared.html = valid.html;
  if (valid.text !== undefined) prepared.text = valid.text;
  return prepared;
}
