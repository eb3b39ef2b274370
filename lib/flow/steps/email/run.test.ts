import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { FlowEmailTemplate, FlowServices } from "@/lib/flow/engine/flow-services";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { validateFlow } from "@/lib/flow/flow-definition";
import { allowLoopbackOutbound } from "@/lib/flow/testing/allow-loopback";
import { parsedStep, stepRunContext } from "@/lib/flow/testing/step-context";
import type { MailTransport } from "@/lib/mail/mail-transport";
import { createSmtpTransport } from "@/lib/mail/smtp-transport";
import { startTestSmtpServer, type TestSmtpServer } from "@/lib/mail/test-smtp-server";
import { runEmail } from "./run";

allowLoopbackOutbound();

let smtp: TestSmtpServer;
let transport: MailTransport;
// The project's saved templates, as the host's lookup would answer them.
const savedTemplates = new Map<string, FlowEmailTemplate>([
  [
    "welcome",
    {
      subject: "Welcome, {{body.name}}",
      html: "<h1>Hello {{body.name}}</h1><p>Your plan: {{body.plan}}</p>",
      text: "Hello {{body.name}}, your plan: {{body.plan}}",
    },
  ],
]);

let services: FlowServices;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  transport = createSmtpTransport({ host: "127.0.0.1", port: smtp.port, secure: false, from: "Shop <shop@example.test>" });
  services = {
    sendMail: (message, options) => transport.send(message, options),
    emailTemplates: { get: async (name) => savedTemplates.get(name) ?? null },
  };
});
afterAll(() => smtp.close());

async function lastMessage(before: number) {
  const messages = await smtp.waitForMessages(before + 1);
  return messages[before];
}

describe("email step", () => {
  it("sends an inline text email with templated recipient and subject", async () => {
    const before = smtp.messages.length;
    const step = parsedStep({ type: "email", to: "{{body.email}}", subject: "Ticket {{body.id}} is {{body.status}}", body: "Hello {{body.name}},\nstatus: {{body.status}} <b>" });
    const output = await runEmail(step, stepRunContext({ context: { body: { email: "ann@example.test", id: 42, status: "closed", name: "Ann" } }, services }));
    expect(output).toBeNull();
    const message = await lastMessage(before);
    expect(message?.envelope.to).toEqual(["ann@example.test"]);
    expect(message?.subject).toBe("Ticket 42 is closed");
    expect(message?.text).toBe("Hello Ann,\nstatus: closed <b>");
    expect(message?.html).toBeUndefined();
  });

  it("escapes values placed into an HTML body, not the template's own markup", async () => {
    const before = smtp.messages.length;
    const step = parsedStep({ type: "email", to: "ops@example.test", subject: "New message", body: "<p>From <b>{{body.name}}</b></p>", format: "html" });
    await runEmail(step, stepRunContext({ context: { body: { name: '<script>alert("x")</script>' } }, services }));
    const message = await lastMessage(before);
    expect(message?.html).toBe("<p>From <b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</b></p>");
  });

  it("sends a saved template by name: subject and text rendered, HTML escaped", async () => {
    const before = smtp.messages.length;
    const result = await runFlow({
      steps: [{ type: "email", name: "mail", to: "{{body.email}}, second@example.test", template: "welcome" }],
      context: { body: { email: "bo@example.test", name: "Bo & Co", plan: "<pro>" } },
      services,
    });
    expect(result.outcome).toBe("completed");
    const message = await lastMessage(before);
    expect(message?.envelope.to).toEqual(["bo@example.test", "second@example.test"]);
    expect(message?.subject).toBe("Welcome, Bo & Co");
    expect(message?.html).toBe("<h1>Hello Bo &amp; Co</h1><p>Your plan: &lt;pro&gt;</p>");
    expect(message?.text).toBe("Hello Bo & Co, your plan: <pro>");
  });

  it("fails when the saved template does not exist", async () => {
    const result = await runFlow({ steps: [{ type: "email", to: "a@example.test", template: "nope" }], services });
    expect(result.outcome).toBe("failed");
    expect(result.steps[0]?.error).toBe('email template "nope" does not exist');
  });

  it("refuses recipients that render to line breaks, nothing or non-addresses", async () => {
    const attempt = (to: string, body: Record<string, unknown>) =>
      runEmail(parsedStep({ type: "email", to, subject: "s", body: "b" }), stepRunContext({ context: { body }, services })).then(
        () => null,
        (error: unknown) => error as AppError,
      );
    const before = smtp.messages.length;
    expect((await attempt("{{body.to}}", { to: "a@example.test\r\nBcc: all@example.test" }))?.message).toBe("the recipient contains a line break after rendering");
    expect((await attempt("{{body.to}}", { to: " , " }))?.message).toBe("the email has no recipient after rendering");
    expect((await attempt("{{body.to}}", { to: "not-an-address" }))?.message).toBe('"not-an-address" is not an email address');
    expect((await attempt("{{body.missing}}", {}))?.message).toBe('"{{body.missing}}" is not an email address');
    expect(smtp.messages.length).toBe(before);
  });

  it("keeps the subject on one line", async () => {
    const before = smtp.messages.length;
    await runEmail(
      parsedStep({ type: "email", to: "a@example.test", subject: "Hi {{body.name}}", body: "b" }),
      stepRunContext({ context: { body: { name: "A\r\nBcc: x@example.test" } }, services }),
    );
    const message = await lastMessage(before);
    expect(message?.subject).toBe("Hi A Bcc: x@example.test");
    expect(message?.envelope.to).toEqual(["a@example.test"]);
  });

  it("settings: a saved template or an inline subject and body", () => {
    const result = validateFlow([
      { type: "email", to: "a@example.test" },
      { type: "email", to: "", template: "welcome" },
      { type: "email", to: "a@example.test", template: "welcome" },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual(["steps.0.subject", "steps.0.body", "steps.1.to"]);
  });
});
