import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import type { MailMessage } from "./mail-transport";
import { createSmtpTransport } from "./smtp-transport";
import { startTestSmtpServer, type TestSmtpServer } from "./test-smtp-server";

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A TCP server that accepts connections and never says a word. */
async function startSilentServer(): Promise<{ port: number; closedSockets: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let closed = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      closed += 1;
      sockets.delete(socket);
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    closedSockets: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

/** A port on loopback with nothing listening. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The test servers live on loopback, which the outbound guard refuses unless it is allow-listed.
const originalAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;
beforeAll(() => {
  process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1";
  resetConfigForTests();
});
afterAll(() => {
  if (originalAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
  else process.env.OUTBOUND_ALLOWED_HOSTS = originalAllowedHosts;
  resetConfigForTests();
});

const baseMessage: MailMessage = {
  to: ["reader@example.test"],
  subject: "Your ticket #42 was updated",
  text: "Hello,\nthe status is now closed.",
};

describe("SMTP transport without authentication", () => {
  let server: TestSmtpServer;
  beforeAll(async () => {
    server = await startTestSmtpServer();
  });
  afterAll(() => server.close());

  it("delivers the exact envelope, subject, headers and body", async () => {
    const transport = createSmtpTransport({ host: "127.0.0.1", port: server.port, secure: false, from: "Shop <shop@example.test>" });
    expect(transport.kind).toBe("smtp");
    const result = await transport.send({
      ...baseMessage,
      to: ["reader@example.test", "Second Reader <second@example.test>"],
      replyTo: "support@example.test",
      headers: { "X-Flow-Run": "exe_123" },
    });
    const [received] = await server.waitForMessages(1);
    expect(received?.envelope).toEqual({ from: "shop@example.test", to: ["reader@example.test", "second@example.test"] });
    expect(received?.subject).toBe("Your ticket #42 was updated");
    expect(received?.text).toBe("Hello,\nthe status is now closed.");
    expect(received?.html).toBeUndefined();
    expect(received?.headers.get("from")).toBe("Shop <shop@example.test>");
    expect(received?.headers.get("to")).toBe("reader@example.test, Second Reader <second@example.test>");
    expect(received?.headers.get("reply-to")).toBe("support@example.test");
    expect(received?.headers.get("x-flow-run")).toBe("exe_123");
    expect(received?.headers.get("message-id")).toBe(result.messageId);
    expect(received?.user).toBeUndefined();
  });

  it("sends html with a text alternative and a unicode subject, from an overriding sender", async () => {
    const before = server.messages.length;
    const transport = createSmtpTransport({ host: "127.0.0.1", port: server.port, secure: false, from: "shop@example.test" });
    await transport.send({
      from: '"Müller, Anna" <anna@example.test>',
      to: ["gruesse@example.test"],
      subject: "Grüße aus Köln ✓ — a long subject that nodemailer has to encode and perhaps fold over several lines",
      html: "<p>Grüße <b>✓</b></p>",
      text: "Grüße ✓",
    });
    const received = (await server.waitForMessages(before + 1))[before];
    expect(received?.envelope.from).toBe("anna@example.test");
    expect(received?.subject).toBe("Grüße aus Köln ✓ — a long subject that nodemailer has to encode and perhaps fold over several lines");
    expect(received?.html).toBe("<p>Grüße <b>✓</b></p>");
    expect(received?.text).toBe("Grüße ✓");
    expect(received?.headers.get("content-type")).toMatch(/^multipart\/alternative/);
  });

  it("refuses CR/LF in addresses, subject and headers before connecting", async () => {
    const transport = createSmtpTransport({ host: "127.0.0.1", port: await closedPort(), secure: false, from: "shop@example.test" });
    const attempts: Array<[MailMessage, string]> = [
      [{ ...baseMessage, subject: "Hi\r\nBcc: victim@example.test" }, "subject"],
      [{ ...baseMessage, to: ["reader@example.test\nBcc: victim@example.test"] }, "to.0"],
      [{ ...baseMessage, from: "shop@example.test\r\n" }, "from"],
      [{ ...baseMessage, replyTo: "a@example.test\rX: y" }, "replyTo"],
      [{ ...baseMessage, headers: { "X-Note": "one\r\nBcc: victim@example.test" } }, "headers.X-Note"],
      [{ ...baseMessage, headers: { "X-Note\r\nBcc": "victim@example.test" } }, "headers.X-Note\r\nBcc"],
    ];
    for (const [message, path] of attempts) {
      const error = await failureOf(transport.send(message));
      expect(error.code).toBe("validation_failed");
      expect(error.issues?.map((issue) => issue.path)).toContain(path);
      expect(error.issues?.find((issue) => issue.path === path)?.message).toMatch(/CR or LF/);
    }
  });

  it("needs at least one recipient and a body", async () => {
    const transport = createSmtpTransport({ host: "127.0.0.1", port: server.port, secure: false, from: "shop@example.test" });
    const noRecipient = await failureOf(transport.send({ ...baseMessage, to: [] }));
    expect(noRecipient.code).toBe("validation_failed");
    expect(noRecipient.issues).toEqual([{ path: "to", message: "at least one recipient is required" }]);
    const noBody = await failureOf(transport.send({ to: ["a@example.test"], subject: "x" }));
    expect(noBody.issues).toEqual([{ path: "text", message: "a message needs a text or an html body" }]);
  });
});

describe("SMTP transport with authentication", () => {
  const credentials = { user: "mailer", password: "s3cret-pa55word" };
  let server: TestSmtpServer;
  beforeAll(async () => {
    server = await startTestSmtpServer({ auth: credentials });
  });
  afterAll(() => server.close());

  it("logs in and delivers", async () => {
    const transport = createSmtpTransport({ host: "127.0.0.1", port: server.port, secure: false, from: "shop@example.test", ...credentials });
    await transport.send(baseMessage);
    const [received] = await server.waitForMessages(1);
    expect(received?.user).toBe("mailer");
    expect(received?.envelope.to).toEqual(["reader@example.test"]);
    expect(received?.subject).toBe(baseMessage.subject);
    expect(received?.text).toBe(baseMessage.text);
  });

  it("reports a rejected login as unavailable without the password", async () => {
    const before = server.messages.length;
    const transport = createSmtpTransport({
      host: "127.0.0.1",
      port: server.port,
      secure: false,
      from: "shop@example.test",
      user: "mailer",
      password: "wrong-pa55word",
    });
    const error = await failureOf(transport.send(baseMessage));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe(`the SMTP server at 127.0.0.1:${server.port} rejected the login (535)`);
    expect(error.message).not.toContain("pa55word");
    expect(server.messages.length).toBe(before);
  });
});

describe("SMTP transport failures", () => {
  it("times out against a server that never answers, within the limit", async () => {
    const silent = await startSilentServer();
    try {
      const transport = createSmtpTransport({ host: "127.0.0.1", port: silent.port, secure: false, from: "shop@example.test" }, { timeoutMs: 300 });
      const started = Date.now();
      const error = await failureOf(transport.send(baseMessage));
      expect(error.code).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(3_000);
      await expect.poll(silent.closedSockets).toBe(1);
    } finally {
      await silent.close();
    }
  });

  it("stops when the caller's signal aborts and drops the connection", async () => {
    const silent = await startSilentServer();
    try {
      const transport = createSmtpTransport({ host: "127.0.0.1", port: silent.port, secure: false, from: "shop@example.test" });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const error = await failureOf(transport.send(baseMessage, { signal: controller.signal }));
      expect(error.code).toBe("timeout");
      expect(error.message).toMatch(/cut off/);
      expect(Date.now() - started).toBeLessThan(3_000);
      await expect.poll(silent.closedSockets).toBe(1);

      const already = await failureOf(transport.send(baseMessage, { signal: AbortSignal.abort() }));
      expect(already.code).toBe("timeout");
      expect(silent.closedSockets()).toBe(1);
    } finally {
      await silent.close();
    }
  });

  it("reports a refused connection as unavailable without credentials", async () => {
    const port = await closedPort();
    const transport = createSmtpTransport({ host: "127.0.0.1", port, secure: false, from: "shop@example.test", user: "mailer", password: "s3cret-pa55word" });
    const error = await failureOf(transport.send(baseMessage));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe(`could not connect to the SMTP server at 127.0.0.1:${port}`);
  });

  it("reports a failed TLS handshake as unavailable", async () => {
    const server = await startTestSmtpServer();
    try {
      const transport = createSmtpTransport({ host: "127.0.0.1", port: server.port, secure: true, from: "shop@example.test" }, { timeoutMs: 3_000 });
      const error = await failureOf(transport.send(baseMessage));
      expect(error.code).toBe("unavailable");
      expect(error.message).toBe(`could not establish TLS with the SMTP server at 127.0.0.1:${server.port}`);
      expect(server.messages).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it("refuses a private destination that is not allow-listed, before connecting", async () => {
    const server = await startTestSmtpServer();
    let connections = 0;
    const counter = net.createServer(() => (connections += 1));
    await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", resolve));
    const port = (counter.address() as AddressInfo).port;
    try {
      process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${server.port}`;
      resetConfigForTests();
      const transport = createSmtpTransport({ host: "127.0.0.1", port, secure: false, from: "shop@example.test" });
      const error = await failureOf(transport.send(baseMessage));
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(/^outbound request refused: 127\.0\.0\.1 is /);
      const byName = await failureOf(createSmtpTransport({ host: "localhost", port, secure: false, from: "shop@example.test" }).send(baseMessage));
      expect(byName.code).toBe("validation_failed");
      expect(connections).toBe(0);

      // The allow-listed port still works, and a trusted (operator-configured) server skips the guard.
      await createSmtpTransport({ host: "127.0.0.1", port: server.port, secure: false, from: "shop@example.test" }).send(baseMessage);
      await expect(
        createSmtpTransport({ host: "127.0.0.1", port, secure: false, from: "shop@example.test" }, { trustedDestination: true, timeoutMs: 300 }).send(baseMessage),
      ).rejects.toMatchObject({ code: "timeout" });
      expect(connections).toBe(1);
    } finally {
      process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1";
      resetConfigForTests();
      counter.close();
      await server.close();
    }
  });

  it("rejects invalid settings", () => {
    expect(() => createSmtpTransport({ host: "bad host\r\n", port: 25, secure: false, from: "x@example.test" })).toThrow(expect.objectContaining({ code: "validation_failed" }));
  });
});
