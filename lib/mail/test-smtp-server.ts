import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for tests (the `smtp-server` package), with a small MIME reader so
 * tests can assert exactly what arrived. Used by the mail tests and any feature that sends mail.
 */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The authenticated user, when the client logged in. */
  user?: string;
  raw: string;
  /** Header names lowercased; values unfolded and not decoded. */
  headers: Map<string, string>;
  /** Subject with RFC 2047 encoded words decoded. */
  subject: string;
  /** Decoded, CRLF turned into LF, without the final line break every SMTP body ends with. */
  text?: string;
  html?: string;
}

export interface TestSmtpServer {
  port: number;
  messages: ReceivedMail[];
  /** Resolves when at least `count` messages have arrived. */
  waitForMessages(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startTestSmtpServer(options: { auth?: { user: string; password: string } } = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    // Plain TCP on loopback: a self-signed STARTTLS would only test certificate rejection.
    disabledCommands: options.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !options.auth,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.password) {
        return callback(null, { user: auth.username });
      }
      return callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const envelopeFrom = session.envelope.mailFrom;
        messages.push({
          ...readMessage(raw),
          envelope: {
            from: envelopeFrom === false ? "" : envelopeFrom.address,
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
          },
          user: typeof session.user === "string" ? session.user : undefined,
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    async waitForMessages(count) {
      while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readMessage(raw: string): Omit<ReceivedMail, "envelope" | "user"> {
  const part = readPart(raw);
  const headers = part.headers;
  return { raw, headers, subject: decodeEncodedWords(headers.get("subject") ?? ""), text: part.text, html: part.html };
}

interface ReadPart {
  headers: Map<string, string>;
  text?: string;
  html?: string;
}

function readPart(raw: string): ReadPart {
  const split = raw.indexOf("\r\n\r\n");
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
    }
  }
  const contentType = headers.get("content-type") ?? "text/plain";
  const result: ReadPart = { headers };
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      const inner = readPart(section.replace(/^\r\n/, "").replace(/\r\n$/, ""));
      result.text ??= inner.text;
      result.html ??= inner.html;
    }
    return result;
  }
  // SMTP data always ends with a line break (nodemailer adds one when the body lacks it): drop it.
  const decoded = decodeBody(body.replace(/\r\n$/, ""), headers.get("content-transfer-encoding") ?? "7bit").replace(/\r\n/g, "\n");
  if (/^text\/html/i.test(contentType)) result.html = decoded;
  else if (/^text\/plain/i.test(contentType)) result.text = decoded;
  return result;
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return decodeQuotedPrintable(body.replace(/=\r\n/g, ""));
    default:
      return body;
  }
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_match, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}
