import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { formatMailAddress, parseMailAddress } from "./mail-address";
import { mailSettingsFromSmtpUrl, mailSettingsSchema } from "./mail-settings";
import { MAX_RECIPIENTS, type MailMessage } from "./mail-transport";
import { validateMailMessage } from "./validate-mail-message";

function validationIssues(message: MailMessage): Array<{ path: string; message: string }> {
  try {
    validateMailMessage(message, { from: "shop@example.test" });
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("validation_failed");
    return (error as AppError).issues ?? [];
  }
  throw new Error("expected the message to be refused");
}

describe("parseMailAddress", () => {
  it.each([
    ["a@example.test", { address: "a@example.test" }],
    ["  first.last+tag@sub.example.co.uk ", { address: "first.last+tag@sub.example.co.uk" }],
    ["dev@localhost", { address: "dev@localhost" }],
    ["Jane Doe <jane@example.test>", { name: "Jane Doe", address: "jane@example.test" }],
    ["<jane@example.test>", { address: "jane@example.test" }],
    ['"Doe, Jane" <jane@example.test>', { name: "Doe, Jane", address: "jane@example.test" }],
    ['"Say \\"hi\\"" <hi@example.test>', { name: 'Say "hi"', address: "hi@example.test" }],
    ["Jürgen Müller <juergen@bücher.example>", { name: "Jürgen Müller", address: "juergen@bücher.example" }],
  ])("accepts %s", (input, expected) => {
    expect(parseMailAddress(input)).toEqual(expected);
  });

  it.each([
    "",
    "plainaddress",
    "@example.test",
    "a@",
    "a@@example.test",
    "a@b@example.test",
    "a@example..test",
    "a@-example.test",
    ".a@example.test",
    "a..b@example.test",
    "a b@example.test",
    "a@example.test, b@example.test",
    "a@example.test; b@example.test",
    "Doe, Jane <jane@example.test>",
    "Team: a@example.test;",
    '"unterminated <a@example.test>',
    '"a" b" <a@example.test>',
    "a@example.test (comment)",
    "<a@example.test> trailing",
    "a@example.test\r\nBcc: b@example.test",
    "a@example.test\n",
    "a\u0000@example.test",
    `${"x".repeat(65)}@example.test`,
  ])("refuses %j", (input) => {
    expect(parseMailAddress(input)).toBeUndefined();
  });

  it("formats names that need quoting", () => {
    expect(formatMailAddress({ address: "a@example.test" })).toBe("a@example.test");
    expect(formatMailAddress({ name: "Jane Doe", address: "a@example.test" })).toBe("Jane Doe <a@example.test>");
    expect(formatMailAddress({ name: "Doe, Jane", address: "a@example.test" })).toBe('"Doe, Jane" <a@example.test>');
    expect(formatMailAddress({ name: 'Say "hi"', address: "a@example.test" })).toBe('"Say \\"hi\\"" <a@example.test>');
    expect(parseMailAddress(formatMailAddress({ name: 'Say "hi", \\ok', address: "a@example.test" }))).toEqual({ name: 'Say "hi", \\ok', address: "a@example.test" });
  });
});

describe("validateMailMessage", () => {
  it("resolves the default sender and parses every address", () => {
    expect(
      validateMailMessage(
        { to: ["a@example.test", "Bea <b@example.test>"], subject: "Hello", text: "t", replyTo: "r@example.test", headers: { "X-Tag": "v" } },
        { from: "Shop <shop@example.test>" },
      ),
    ).toEqual({
      from: { name: "Shop", address: "shop@example.test" },
      to: [{ address: "a@example.test" }, { name: "Bea", address: "b@example.test" }],
      replyTo: { address: "r@example.test" },
      subject: "Hello",
      text: "t",
      headers: { "X-Tag": "v" },
    });
  });

  it("names every CR/LF injection attempt", () => {
    expect(
      validationIssues({
        from: "a@example.test\r\nBcc: x@example.test",
        to: ["b@example.test\nCc: x@example.test"],
        subject: "Hi\rthere",
        replyTo: "c@example.test\r\n",
        text: "line one\r\nline two is fine in a body",
        headers: { "X-Ok": "v\nBcc: x@example.test", "X-Bad\r\nBcc": "x@example.test" },
      }),
    ).toEqual([
      { path: "from", message: "the sender must not contain CR or LF (line breaks)" },
      { path: "to.0", message: "a recipient must not contain CR or LF (line breaks)" },
      { path: "subject", message: "the subject must not contain CR or LF (line breaks)" },
      { path: "replyTo", message: "the reply-to address must not contain CR or LF (line breaks)" },
      { path: "headers.X-Ok", message: "a header value must not contain CR or LF (line breaks)" },
      { path: "headers.X-Bad\r\nBcc", message: "a header name must not contain CR or LF (line breaks)" },
    ]);
  });

  it("refuses reserved and malformed header names, control characters and oversized input", () => {
    expect(
      validationIssues({ to: ["a@example.test"], subject: "s", text: "t", headers: { Bcc: "x@example.test", "Content-Type": "text/plain", "Bad Name": "v", "X:Y": "v" } }),
    ).toEqual([
      { path: "headers.Bcc", message: "the Bcc header is set by the mail transport" },
      { path: "headers.Content-Type", message: "the Content-Type header is set by the mail transport" },
      { path: "headers.Bad Name", message: "a header name is printable ASCII without spaces or colons" },
      { path: "headers.X:Y", message: "a header name is printable ASCII without spaces or colons" },
    ]);
    expect(validationIssues({ to: ["a@example.test"], subject: "tab\tok but bell \u0007 not", text: "t" })).toEqual([
      { path: "subject", message: "the subject must not contain control characters" },
    ]);
    expect(validationIssues({ to: ["a@example.test"], subject: "x".repeat(999), text: "t" })).toEqual([{ path: "subject", message: "the subject is longer than 998 characters" }]);
    const tooMany = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `r${i}@example.test`);
    expect(validationIssues({ to: tooMany, subject: "s", text: "t" })).toEqual([{ path: "to", message: `at most ${MAX_RECIPIENTS} recipients` }]);
  });

  it("refuses lists and invalid addresses one by one", () => {
    expect(validationIssues({ to: ["ok@example.test", "a@example.test, b@example.test", "nope"], subject: "s", text: "t" })).toEqual([
      { path: "to.1", message: "a recipient must be one valid email address" },
      { path: "to.2", message: "a recipient must be one valid email address" },
    ]);
  });

  it("refuses a default sender that is not one address", () => {
    let caught: unknown;
    try {
      validateMailMessage({ to: ["a@example.test"], subject: "s", text: "t" }, { from: "a@example.test, b@example.test" });
    } catch (error) {
      caught = error;
    }
    expect((caught as AppError).issues).toEqual([{ path: "from", message: "the default sender is not one valid email address" }]);
  });
});

describe("mailSettingsSchema", () => {
  it("applies defaults and drops empty credentials", () => {
    expect(mailSettingsSchema.parse({ host: "smtp.example.com", from: "Shop <shop@example.com>", user: "", password: "" })).toEqual({
      host: "smtp.example.com",
      port: 587,
      secure: false,
      from: "Shop <shop@example.com>",
    });
  });

  it("accepts a full configuration", () => {
    const settings = { host: "smtp.example.com", port: 465, secure: true, user: "mailer", password: "p@ss word", from: "shop@example.com" };
    expect(mailSettingsSchema.parse(settings)).toEqual(settings);
  });

  it("refuses hosts with line breaks, a user without a password and a list as sender", () => {
    const result = mailSettingsSchema.safeParse({ host: "smtp.example.com\r\nX", port: 25, secure: false, user: "u", from: "a@x.example, b@x.example" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join(".")).sort()).toEqual(["from", "host", "password"]);
  });

  it("reads SMTP_URL", () => {
    expect(mailSettingsFromSmtpUrl("smtps://mailer:p%40ss@smtp.example.com", "shop@example.com")).toEqual({
      host: "smtp.example.com",
      port: 465,
      secure: true,
      user: "mailer",
      password: "p@ss",
      from: "shop@example.com",
    });
    expect(mailSettingsFromSmtpUrl("smtp://127.0.0.1:2525", "shop@example.com")).toEqual({ host: "127.0.0.1", port: 2525, secure: false, from: "shop@example.com" });
  });
});
