import { describe, expect } from "vitest";
import { listLocalMailbox } from "@/lib/mail/list-local-mailbox";
import { onRecordChange, type RecordChangeEvent } from "@/lib/records-service/record-events";
import { getRecordOrThrow } from "@/lib/records-service/get-record-or-throw";
import { listRecords } from "@/lib/records-service/list-records";
import { parseListQuery } from "@/lib/records-service/parse-list-query";
import { getSchemaOrThrow } from "@/lib/schemas/get-schema-or-throw";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { verifyEndUserToken } from "@/lib/end-users/verify-end-user-token";
import { endUserTest, nextMailTo, PASSWORD, tokenFromMail, uniqueEmail } from "@/test/support/end-user-suite";

const it = endUserTest();

const SECRET_MARKERS = ["passwordHash", "_tokenEpoch", "_verification", "_reset", "_passwordChangedAt", "scrypt$"];

function expectNoSecrets(text: string, ...secrets: string[]): void {
  for (const marker of [...SECRET_MARKERS, ...secrets]) expect(text).not.toContain(marker);
}

describe(`end-user accounts over HTTP (customer database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("register → verification mail over SMTP → verify → login → me", async ({ suite, project }) => {
    const events: RecordChangeEvent[] = [];
    const unsubscribe = onRecordChange((event) => {
      if (event.projectId === project.projectId) events.push(event);
    });
    const email = uniqueEmail("ana");
    const seen = suite.smtp.messages.length;

    const registered = await project.post("register", { email: `  ${email.toUpperCase()} `, password: PASSWORD, displayName: "Ana" });
    expect(registered.status).toBe(201);
    expect(registered.headers.get("cache-control")).toBe("no-store");
    expect(registered.body).toEqual({
      id: expect.stringMatching(/^rec_/),
      email,
      emailVerified: false,
      displayName: "Ana",
      plan: "free",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expectNoSecrets(registered.text, PASSWORD);
    const userId = String(registered.body?.id);

    const mail = await nextMailTo(suite.smtp, email, seen);
    expect(mail.subject).toBe("Confirm your email address");
    expect(mail.headers.get("from")).toContain("no-reply@shop.example");
    const token = tokenFromMail(mail);
    expect(mail.text).toContain(`/auth/${project.projectId}/customers/verify?token=${token}`);
    expect(mail.html).toContain(`verify?token=${token}`);

    // The automation event comes once the account and its mail are through, without secrets.
    unsubscribe();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "create", schema: "customers", record: { id: userId, email, emailVerified: false } });
    expectNoSecrets(JSON.stringify(events[0]), PASSWORD, token);

    const verified = await project.post("verify-email", { token });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: userId, email, emailVerified: true, displayName: "Ana" });
    expectNoSecrets(verified.text, PASSWORD, token);

    const login = await project.post("login", { email: email.toUpperCase(), password: PASSWORD });
    expect(login.status).toBe(200);
    const session = login.body as { token: string; expiresAt: string; user: Record<string, unknown> };
    expect(session.user).toMatchObject({ id: userId, email, emailVerified: true });
    const expiresInMs = Date.parse(session.expiresAt) - Date.now();
    expect(expiresInMs).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(expiresInMs).toBeLessThanOrEqual(7 * 24 * 3600_000);
    expectNoSecrets(login.text, PASSWORD);
    const [header, payload] = session.token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>);
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    expect(payload).toMatchObject({ sub: userId, aud: `${project.projectId}:customers`, iss: "flowpoint" });
    expect(Number(payload?.exp) - Number(payload?.iat)).toBe(7 * 24 * 3600);

    const me = await project.me(session.token);
    expect(me.status).toBe(200);
    expect(me.body).toEqual(session.user);
    expectNoSecrets(me.text, PASSWORD);

    // The function custom endpoints call (end_user auth mode) answers the same profile.
    expect(await verifyEndUserToken({ projectId: project.projectId, schema: "customers", token: session.token })).toEqual(session.user);
  });

  it("lets unverified accounts log in, with emailVerified false in the profile", async ({ project }) => {
    const email = uniqueEmail("unverified");
    expect((await project.post("register", { email, password: PASSWORD, displayName: "Ben", plan: "pro" })).status).toBe(201);
    const login = await project.post("login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect((login.body as { user: unknown }).user).toMatchObject({ email, emailVerified: false, plan: "pro" });
  });

  it("reset flow: 202 → reset mail → new password works, old one does not, the email counts as verified", async ({ suite, project }) => {
    const email = uniqueEmail("reset");
    expect((await project.post("register", { email, password: PASSWORD, displayName: "Cleo" })).status).toBe(201);
    const seen = suite.smtp.messages.length;

    const requested = await project.post("request-password-reset", { email: email.toUpperCase() });
    expect(requested.status).toBe(202);
    await settleAfterResponseWork();
    const mail = await nextMailTo(suite.smtp, email, seen);
    expect(mail.subject).toBe("Reset your password");
    const token = tokenFromMail(mail);
    expect(mail.text).toContain(`/auth/${project.projectId}/customers/reset-password?token=${token}`);

    const newPassword = "a brand new passphrase";
    const reset = await project.post("reset-password", { token, password: newPassword });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ email, emailVerified: true, displayName: "Cleo" });
    expectNoSecrets(reset.text, newPassword, token);

    expect((await project.post("login", { email, password: PASSWORD })).status).toBe(401);
    const login = await project.post("login", { email, password: newPassword });
    expect(login.status).toBe(200);
    // A token issued right after the reset (possibly in the same second) works.
    expect((await project.me((login.body as { token: string }).token)).status).toBe(200);
  });

  it("keeps the hidden fields out of the records services too", async ({ project }) => {
    const email = uniqueEmail("records");
    const registered = await project.post("register", { email, password: PASSWORD, displayName: "Dee" });
    expect(registered.status).toBe(201);
    await project.post("request-password-reset", { email });
    await settleAfterResponseWork();

    // The document does hold them...
    const [stored] = await project.store.findByIds("customers", [String(registered.body?.id)]);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(stored?._resetTokenHash).toMatch(/^[0-9a-f]{64}$/);
    // ...but the records API's services never answer them.
    const schema = await getSchemaOrThrow({ projectId: project.projectId, name: "customers" });
    const schemas = await listSchemas({ projectId: project.projectId });
    const one = await getRecordOrThrow({ store: project.store, schema, schemas, id: String(registered.body?.id) });
    expect(Object.keys(one).sort()).toEqual(["createdAt", "displayName", "email", "emailVerified", "id", "plan", "updatedAt"]);
    const list = await listRecords({ store: project.store, schema, schemas, query: parseListQuery({ schema, params: new URLSearchParams() }) });
    expectNoSecrets(JSON.stringify(list), PASSWORD);
  });

  it("answers CORS preflights and grants any origin (bearer tokens, no cookies)", async ({ project }) => {
    const preflight = await project.api.fetch("/auth/customers/login", {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
    const me = await project.api.fetch("/auth/customers/me", { method: "OPTIONS" });
    expect(me.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS");
    expect(me.headers.get("access-control-allow-headers")).toContain("authorization");
    const login = await project.post("login", { email: uniqueEmail("nobody"), password: PASSWORD }, { headers: { origin: "https://shop.example" } });
    expect(login.headers.get("access-control-allow-origin")).toBe("*");
    expect(login.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("sends through the local mailbox when the project has no mail settings", async ({ suite }) => {
    const local = await suite.createProject({ mail: false });
    const email = uniqueEmail("local");
    expect((await local.post("register", { email, password: PASSWORD, displayName: "Eve" })).status).toBe(201);
    const mailbox = await listLocalMailbox({ projectId: local.projectId });
    expect(mailbox).toHaveLength(1);
    expect(mailbox[0]).toMatchObject({ to: [email], subject: "Confirm your email address" });
    const token = /Or use this code: ([A-Za-z0-9_-]{43})/.exec(mailbox[0]?.text ?? "")?.[1];
    expect(token).toBeDefined();
    expect((await local.post("verify-email", { token })).body).toMatchObject({ email, emailVerified: true });
  });
});
