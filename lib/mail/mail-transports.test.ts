import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { closePlatformDb, getPlatformDbKind } from "@/lib/platform-db/client";
import { getPlatformMailFrom, getPlatformMailTransport } from "./get-platform-mail-transport";
import { getProjectMailTransport } from "./get-project-mail-transport";
import { listLocalMailbox } from "./list-local-mailbox";
import { createLocalMailboxTransport } from "./local-mailbox-transport";
import { startTestSmtpServer, type TestSmtpServer } from "./test-smtp-server";

const originalEnv = { ...process.env };
const MAIL_VARIABLES = ["SMTP_URL", "RESEND_API_KEY", "MAIL_FROM", "APP_URL", "OUTBOUND_ALLOWED_HOSTS"] as const;

function useMailEnvironment(values: Partial<Record<(typeof MAIL_VARIABLES)[number], string>>): void {
  for (const name of MAIL_VARIABLES) {
    const value = values[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
}

afterEach(() => useMailEnvironment({}));
afterAll(async () => {
  process.env = { ...originalEnv };
  resetConfigForTests();
  await closePlatformDb();
});

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe(`local mailbox (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("uses the backend the environment selects", async () => {
    expect(await getPlatformDbKind()).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
  });

  it("stores a project's mail and lists it newest first", async () => {
    useMailEnvironment({});
    const projectId = newId("project");
    const transport = getProjectMailTransport({ projectId, settings: null });
    expect(transport.kind).toBe("local");
    const first = await transport.send({ to: ["a@example.test"], subject: "first", text: "one" });
    const second = await transport.send({ to: ["b@example.test", "Bea <bea@example.test>"], subject: "second", html: "<p>two</p>" });
    const third = await transport.send({ from: "Shop <shop@example.test>", to: ["c@example.test"], subject: "third", text: "3", html: "<b>3</b>" });

    const listed = await listLocalMailbox({ projectId, limit: 10 });
    expect(listed.map((message) => message.id)).toEqual([third.messageId, second.messageId, first.messageId]);
    expect(listed[1]).toMatchObject({
      projectId,
      from: "Flowpoint <no-reply@localhost>",
      to: ["b@example.test", "Bea <bea@example.test>"],
      subject: "second",
      html: "<p>two</p>",
      text: null,
    });
    expect(listed[1]?.createdAt).toBeInstanceOf(Date);
    expect(listed[0]).toMatchObject({ from: "Shop <shop@example.test>", text: "3", html: "<b>3</b>" });
    expect(first.messageId).toMatch(/^mail_[0-9a-z]{26}$/);

    expect((await listLocalMailbox({ projectId, limit: 2 })).map((message) => message.subject)).toEqual(["third", "second"]);
    expect(await listLocalMailbox({ projectId: newId("project"), limit: 10 })).toEqual([]);
  });

  it("keeps platform mail apart from project mail", async () => {
    useMailEnvironment({ MAIL_FROM: "Platform <platform@example.test>" });
    const transport = getPlatformMailTransport();
    expect(transport.kind).toBe("local");
    const subject = `Invitation ${newId("invitation")}`;
    const { messageId } = await transport.send({ to: ["invitee@example.test"], subject, text: "join us" });

    const platformMail = await listLocalMailbox({ projectId: null, limit: 200 });
    const stored = platformMail.find((message) => message.id === messageId);
    expect(stored).toMatchObject({ projectId: null, from: "Platform <platform@example.test>", to: ["invitee@example.test"], subject, text: "join us" });
    expect(platformMail.every((message) => message.projectId === null)).toBe(true);
    expect((await listLocalMailbox({ limit: 200 })).some((message) => message.id === messageId)).toBe(true);
  });

  it("validates exactly like a real transport and stores nothing invalid", async () => {
    const projectId = newId("project");
    const transport = createLocalMailboxTransport({ projectId, from: "shop@example.test" });
    const error = await failureOf(transport.send({ to: ["a@example.test"], subject: "Hi\r\nBcc: x@example.test", text: "t" }));
    expect(error.code).toBe("validation_failed");
    const multiple = await failureOf(transport.send({ to: ["a@example.test, b@example.test"], subject: "s", text: "t" }));
    expect(multiple.issues).toEqual([{ path: "to.0", message: "a recipient must be one valid email address" }]);
    expect(await listLocalMailbox({ projectId, limit: 10 })).toEqual([]);
  });

  it("honours an aborted signal", async () => {
    const projectId = newId("project");
    const transport = createLocalMailboxTransport({ projectId, from: "shop@example.test" });
    const error = await failureOf(transport.send({ to: ["a@example.test"], subject: "s", text: "t" }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe("timeout");
    expect(await listLocalMailbox({ projectId, limit: 10 })).toEqual([]);
  });

  it("rejects a bad listing query", async () => {
    const error = await failureOf(listLocalMailbox({ limit: 0 }));
    expect(error.code).toBe("validation_failed");
    expect(error.issues?.[0]?.path).toBe("limit");
  });
});

describe("transport factories", () => {
  let server: TestSmtpServer;
  const credentials = { user: "platform", password: "pl@tform pass" };
  beforeAll(async () => {
    server = await startTestSmtpServer({ auth: credentials });
  });
  afterAll(() => server.close());

  it("sends platform mail through SMTP_URL with its credentials and MAIL_FROM", async () => {
    useMailEnvironment({
      SMTP_URL: `smtp://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${server.port}`,
      RESEND_API_KEY: "re_should_not_be_used",
      MAIL_FROM: "Flowpoint <noreply@flowpoint.example>",
    });
    const transport = getPlatformMailTransport();
    expect(transport.kind).toBe("smtp");
    const before = server.messages.length;
    await transport.send({ to: ["invitee@example.test"], subject: "You are invited", text: "Accept: https://app.example/invitations/abc" });
    const received = (await server.waitForMessages(before + 1))[before];
    expect(received?.user).toBe("platform");
    expect(received?.envelope).toEqual({ from: "noreply@flowpoint.example", to: ["invitee@example.test"] });
    expect(received?.headers.get("from")).toBe("Flowpoint <noreply@flowpoint.example>");
    expect(received?.subject).toBe("You are invited");
    expect(received?.text).toBe("Accept: https://app.example/invitations/abc");
  });

  it("chooses Resend when only RESEND_API_KEY is set", () => {
    useMailEnvironment({ RESEND_API_KEY: "re_123" });
    expect(getPlatformMailTransport().kind).toBe("resend");
  });

  it("derives the default sender from APP_URL and refuses a bad MAIL_FROM", () => {
    useMailEnvironment({ APP_URL: "https://cms.example.com" });
    expect(getPlatformMailFrom()).toBe("Flowpoint <no-reply@cms.example.com>");
    useMailEnvironment({ MAIL_FROM: "a@example.test, b@example.test" });
    expect(() => getPlatformMailTransport()).toThrow(ConfigError);
  });

  it("sends project mail through the project's own SMTP settings, behind the outbound guard", async () => {
    const settings = { host: "127.0.0.1", port: server.port, secure: false, user: credentials.user, password: credentials.password, from: "Project <project@example.test>" };
    const refused = await failureOf(getProjectMailTransport({ projectId: newId("project"), settings }).send({ to: ["a@example.test"], subject: "s", text: "t" }));
    expect(refused.code).toBe("validation_failed");
    expect(refused.message).toMatch(/^outbound request refused/);

    useMailEnvironment({ OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${server.port}` });
    const transport = getProjectMailTransport({
      projectId: newId("project"),
      settings,
    });
    expect(transport.kind).toBe("smtp");
    const before = server.messages.length;
    await transport.send({ to: ["end-user@example.test"], subject: "Verify your email", html: '<a href="https://x.example/v">Verify</a>' });
    const received = (await server.waitForMessages(before + 1))[before];
    expect(received?.envelope).toEqual({ from: "project@example.test", to: ["end-user@example.test"] });
    expect(received?.html).toBe('<a href="https://x.example/v">Verify</a>');
  });

  it("refuses invalid project settings with issue paths", () => {
    let caught: unknown;
    try {
      getProjectMailTransport({ projectId: newId("project"), settings: { host: "", port: 70000, secure: false, from: "nope", user: "u" } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe("validation_failed");
    expect((caught as AppError).issues?.map((issue) => issue.path).sort()).toEqual(["mail.from", "mail.host", "mail.password", "mail.port"]);
  });
});
