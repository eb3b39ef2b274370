import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowedHosts } from "@/lib/outbound/allowed-hosts";
import type { ConnectTarget } from "@/lib/outbound/safe-fetch";
import { checkMailDestination } from "@/lib/projects/check-mail-destination";
import type { MailMessage } from "./mail-transport";
import { createSmtpTransport } from "./smtp-transport";
import { startTestSmtpServer, type TestSmtpServer } from "./test-smtp-server";
import { LOOPBACK_ANSWER, PUBLIC_ADDRESS, rebindingLookup } from "@/lib/outbound/testing/rebinding-lookup";
import { caughtAppError } from "@/test/support/caught-app-error";

/**
 * Security issue 9, item 10: a project's SMTP host passes the outbound guard when saved and on every
 * connection, and the transport dials the address the guard checked. A real SMTP server on loopback;
 * DNS answers come from an injected resolver.
 */
const message: MailMessage = { to: ["reader@example.test"], subject: "Guarded", text: "Hello" };

describe("SMTP: the outbound guard at connect time", () => {
  let smtp: TestSmtpServer;
  let connections = 0;
  let counter: net.Server;
  let counterPort: number;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    // A loopback listener that only counts: anything reaching it got past the guard.
    counter = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", resolve));
    counterPort = (counter.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await smtp?.close();
    await new Promise<void>((resolve) => counter.close(() => resolve()));
  });

  it("rebinding (public first, loopback after): each send resolves once and dials only what it checked", async () => {
    const lookup = rebindingLookup([{ address: PUBLIC_ADDRESS, family: 4 }], LOOPBACK_ANSWER);
    const dialled: ConnectTarget[] = [];
    const transport = createSmtpTransport(
      { host: "mail.rebind.test", port: counterPort, secure: false, from: "shop@example.test" },
      {
        timeoutMs: 2_000,
        guard: {
          lookup,
          allowedHosts: [],
          beforeConnect: (target) => {
            dialled.push(target);
            throw new Error("test veto: never contact a public address");
          },
        },
      },
    );
    expect((await caughtAppError(transport.send(message))).code).toBe("unavailable");
    expect(dialled).toEqual([{ address: PUBLIC_ADDRESS, family: 4, port: counterPort, servername: "mail.rebind.test" }]);
    // The next send checks again; the name now answers loopback and is refused before any connection.
    const second = await caughtAppError(transport.send(message));
    expect(second.code).toBe("validation_failed");
    expect(second.message).toBe("outbound request refused: mail.rebind.test resolves to a loopback address");
    expect(lookup.calls()).toBe(2);
    expect(dialled).toHaveLength(1);
    expect(connections).toBe(0);
  });

  it("a DNS answer with one public and one private address is refused as a whole", async () => {
    const dialled: ConnectTarget[] = [];
    const transport = createSmtpTransport(
      { host: "mail.mixed.test", port: counterPort, secure: false, from: "shop@example.test" },
      { guard: { lookup: async () => [{ address: PUBLIC_ADDRESS, family: 4 }, ...LOOPBACK_ANSWER], allowedHosts: [], beforeConnect: (target) => dialled.push(target) } },
    );
    const error = await caughtAppError(transport.send(message));
    expect(error.message).toBe("outbound request refused: mail.mixed.test resolves to a loopback address");
    expect(dialled).toEqual([]);
    expect(connections).toBe(0);
  });

  it("a private literal host is refused at connect time", async () => {
    for (const host of ["127.0.0.1", "10.0.0.5", "[::1]"]) {
      const error = await caughtAppError(createSmtpTransport({ host, port: counterPort, secure: false, from: "shop@example.test" }, { guard: { allowedHosts: [] } }).send(message));
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(/^outbound request refused: /);
    }
    expect(connections).toBe(0);
  });

  it("an allow-listed name delivers end to end, to the checked address, keeping the name for TLS", async () => {
    const dialled: ConnectTarget[] = [];
    const transport = createSmtpTransport(
      { host: "mail.internal.test", port: smtp.port, secure: false, from: "shop@example.test" },
      { guard: { lookup: async () => LOOPBACK_ANSWER, allowedHosts: parseAllowedHosts(`mail.internal.test:${smtp.port}`), beforeConnect: (target) => dialled.push(target) } },
    );
    const before = smtp.messages.length;
    await transport.send(message);
    expect(smtp.messages).toHaveLength(before + 1);
    expect(dialled).toEqual([{ address: "127.0.0.1", family: 4, port: smtp.port, servername: "mail.internal.test" }]);
  });
});

describe("SMTP: the outbound guard when the settings are saved", () => {
  const settings = (host: string, port = 587) => ({ host, port, secure: false, from: "shop@example.test" });

  it("refuses private hosts with an issue on mail.host", async () => {
    for (const host of ["127.0.0.1", "localhost", "169.254.169.254", "[fd00::1]"]) {
      const error = await caughtAppError(checkMailDestination(settings(host), { allowedHosts: [] }));
      expect(error.code).toBe("validation_failed");
      expect(error.status).toBe(422);
      expect(error.issues).toEqual([{ path: "mail.host", message: expect.stringMatching(/^outbound request refused: /) }]);
    }
    const mixed = await caughtAppError(
      checkMailDestination(settings("mail.mixed.test"), { allowedHosts: [], lookup: async () => [{ address: PUBLIC_ADDRESS, family: 4 }, ...LOOPBACK_ANSWER] }),
    );
    expect(mixed.issues).toEqual([{ path: "mail.host", message: "outbound request refused: mail.mixed.test resolves to a loopback address" }]);
  });

  it("accepts public and allow-listed hosts", async () => {
    await expect(checkMailDestination(settings("smtp.example.test"), { allowedHosts: [], lookup: async () => [{ address: PUBLIC_ADDRESS, family: 4 }] })).resolves.toBeUndefined();
    await expect(checkMailDestination(settings("127.0.0.1", 2525), { allowedHosts: parseAllowedHosts("127.0.0.1:2525") })).resolves.toBeUndefined();
  });
});
