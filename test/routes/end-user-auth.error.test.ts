import { describe, expect } from "vitest";
import { updateProject } from "@/lib/projects/update-project";
import { createRecord } from "@/lib/records-service/create-record";
import { getSchemaOrThrow } from "@/lib/schemas/get-schema-or-throw";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { CUSTOMERS_SCHEMA, endUserCalls, endUserTest, nextMailTo, PASSWORD, tokenFromMail, uniqueEmail, type EndUserContext } from "@/test/support/end-user-suite";
import { freePort } from "@/test/support/fault-processes";

/** A loopback port nothing listens on (a mail server that is down). */
const closedPort = await freePort();

const it = endUserTest({
  extraAllowedHosts: [`127.0.0.1:${closedPort}`],
  schemas: [
    { name: "address", kind: "component", fields: [{ name: "city", type: "string" }] },
    CUSTOMERS_SCHEMA,
    { name: "orders", kind: "collection", fields: [{ name: "total", type: "number" }] },
  ],
});

/** Registers an account and answers its email and the verification token from the mail. */
async function registerWithMail({ suite, project }: EndUserContext, label: string): Promise<{ email: string; id: string; verificationToken: string }> {
  const email = uniqueEmail(label);
  const seen = suite.smtp.messages.length;
  const registered = await project.post("register", { email, password: PASSWORD, displayName: label });
  expect(registered.status).toBe(201);
  return { email, id: String(registered.body?.id), verificationToken: tokenFromMail(await nextMailTo(suite.smtp, email, seen)) };
}

async function requestResetToken({ suite, project }: EndUserContext, email: string): Promise<string> {
  const seen = suite.smtp.messages.length;
  expect((await project.post("request-password-reset", { email })).status).toBe(202);
  await settleAfterResponseWork();
  return tokenFromMail(await nextMailTo(suite.smtp, email, seen));
}

const ACTIONS = ["register", "login", "verify-email", "request-password-reset", "reset-password"];

describe("end-user auth: refusals and validation", () => {
  it("answers one 404 body for an unknown project, an unknown schema and schemas that are not auth schemas", async ({ project }) => {
    const targets = [
      ["prj_doesnotexist", "customers"],
      [project.projectId, "nope"],
      [project.projectId, "orders"],
      [project.projectId, "address"],
    ] as const;
    for (const [projectId, schema] of targets) {
      const calls = endUserCalls(project.api.with({ projectId }));
      for (const action of ACTIONS) {
        const response = await calls.post(action, { email: uniqueEmail("x"), password: PASSWORD, token: "t" }, { schema });
        expect(response.status, `${projectId}/auth/${schema}/${action}`).toBe(404);
        expect(response.body).toEqual({ error: "auth schema not found", code: "not_found" });
      }
      const me = await calls.me("whatever", { schema });
      expect(me.status).toBe(404);
      expect(me.body).toEqual({ error: "auth schema not found", code: "not_found" });
    }
  });

  it("validates registrations: every problem listed with its path", async ({ project }) => {
    const invalid = await project.post("register", { email: "not-an-email", password: "short", emailVerified: true, passwordHash: "x", _tokenEpoch: "x", plan: "gold" });
    expect(invalid.status).toBe(422);
    const paths = (invalid.body?.issues as Array<{ path: string }>).map((issue) => issue.path).sort();
    expect(paths).toEqual(["_tokenEpoch", "displayName", "email", "emailVerified", "password", "passwordHash", "plan"]);

    const missing = await project.post("register", { displayName: "No credentials" });
    expect(missing.status).toBe(422);
    expect((missing.body?.issues as Array<{ path: string }>).map((issue) => issue.path).sort()).toEqual(["email", "password"]);

    expect((await project.post("register", "[1, 2]")).status).toBe(422);
    expect((await project.post("register", "{not json")).status).toBe(400);
    const huge = await project.post("register", { email: uniqueEmail("huge"), password: PASSWORD, displayName: "x".repeat(100_001) });
    expect(huge.status).toBe(413);
  });

  it("refuses a taken email, whatever its case, also when two sign-ups race", async ({ suite, project }) => {
    const { email } = await registerWithMail({ suite, project }, "taken");
    const again = await project.post("register", { email: email.toUpperCase(), password: PASSWORD, displayName: "Again" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ field: "email" });

    const racing = uniqueEmail("race");
    const results = await Promise.all(
      [1, 2].map((n) => project.post("register", { email: racing, password: PASSWORD, displayName: `Racer ${n}` }, { ip: `198.51.100.${n + 10}` })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([201, 409]);
    expect(await project.store.count("customers", { where: [{ field: "email", op: "eq", value: racing }] })).toBe(1);
  });

  it("does not keep an account whose verification mail could not be sent (503), so a retry works", async ({ suite }) => {
    const broken = await suite.createProject({ smtpPort: closedPort });
    const email = uniqueEmail("nomail");
    const failed = await broken.post("register", { email, password: PASSWORD, displayName: "Fay" });
    expect(failed.status).toBe(503);
    expect(failed.text).not.toContain(String(closedPort));
    expect(await broken.store.count("customers", { where: [{ field: "email", op: "eq", value: email }] })).toBe(0);

    await updateProject({ projectId: broken.projectId, input: { mail: { host: "127.0.0.1", port: suite.smtp.port, secure: false, from: "Shop <no-reply@shop.example>" } } });
    expect((await broken.post("register", { email, password: PASSWORD, displayName: "Fay" })).status).toBe(201);
  });

  it("answers the same 401 for a wrong password, an unknown email and an account without a password", async ({ suite, project }) => {
    const { email } = await registerWithMail({ suite, project }, "login");
    const schema = await getSchemaOrThrow({ projectId: project.projectId, name: "customers" });
    const schemas = await listSchemas({ projectId: project.projectId });
    const passwordless = uniqueEmail("passwordless");
    await createRecord({ store: project.store, schema, schemas, projectId: project.projectId, origin: "api", input: { email: passwordless, displayName: "Made by the owner" } });

    const answers = [
      await project.post("login", { email, password: "wrong password!" }),
      await project.post("login", { email: uniqueEmail("unknown"), password: PASSWORD }),
      await project.post("login", { email: passwordless, password: PASSWORD }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: "invalid email or password", code: "unauthorized" });
    }
    const malformed = await project.post("login", { email });
    expect(malformed.status).toBe(422);
    expect(malformed.body?.issues).toEqual([{ path: "password", message: "is required" }]);
    expect((await project.post("login", "nope")).status).toBe(400);
  });

  it("refuses verification tokens that are malformed, unknown, used, expired or for an address that changed", async ({ suite, project }) => {
    for (const token of ["", "short", "x".repeat(43), "a".repeat(300)]) {
      const answer = await project.post("verify-email", { token });
      expect([400, 422], JSON.stringify(token)).toContain(answer.status);
    }
    expect((await project.post("verify-email", { token: "x".repeat(43) })).body).toEqual({
      error: "the verification token is invalid or has already been used",
      code: "bad_request",
    });

    const used = await registerWithMail({ suite, project }, "used");
    expect((await project.post("verify-email", { token: used.verificationToken })).status).toBe(200);
    const reused = await project.post("verify-email", { token: used.verificationToken });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: "the verification token is invalid or has already been used", code: "bad_request" });

    const expired = await registerWithMail({ suite, project }, "expired");
    await project.store.updateFirst("customers", [{ field: "id", op: "eq", value: expired.id }], { _verificationExpiresAt: Date.now() - 1000 });
    const late = await project.post("verify-email", { token: expired.verificationToken });
    expect(late.status).toBe(400);
    expect(String(late.body?.error)).toContain("expired");

    const moved = await registerWithMail({ suite, project }, "moved");
    await project.store.updateFirst("customers", [{ field: "id", op: "eq", value: moved.id }], { email: uniqueEmail("new-address") });
    expect((await project.post("verify-email", { token: moved.verificationToken })).status).toBe(400);
    const [account] = await project.store.findByIds("customers", [moved.id]);
    expect(account?.emailVerified).toBe(false);
  });

  it("refuses reset tokens that are unknown, used, expired or replaced, and keeps a token a too-short password did not use", async ({ suite, project }) => {
    const { email, id } = await registerWithMail({ suite, project }, "resets");
    const first = await requestResetToken({ suite, project }, email);
    const second = await requestResetToken({ suite, project }, email);
    const replaced = await project.post("reset-password", { token: first, password: "another passphrase" });
    expect(replaced.status).toBe(400);
    expect(replaced.body).toEqual({ error: "the reset token is invalid or has already been used", code: "bad_request" });

    const weak = await project.post("reset-password", { token: second, password: "short" });
    expect(weak.status).toBe(422);
    expect(weak.body?.issues).toEqual([{ path: "password", message: "must be at least 8 characters" }]);
    expect((await project.post("reset-password", { token: second, password: "another passphrase" })).status).toBe(200);
    expect((await project.post("reset-password", { token: second, password: "yet another passphrase" })).status).toBe(400);

    const third = await requestResetToken({ suite, project }, email);
    await project.store.updateFirst("customers", [{ field: "id", op: "eq", value: id }], { _resetExpiresAt: Date.now() - 1 });
    const late = await project.post("reset-password", { token: third, password: "too late passphrase" });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: "the reset token has expired; ask for a new one", code: "bad_request" });
    expect((await project.post("login", { email, password: "another passphrase" })).status).toBe(200);
  });

  it("answers request-password-reset with the same 202 for unknown emails and sends nothing", async ({ suite, project }) => {
    const known = await project.post("request-password-reset", { email: (await registerWithMail({ suite, project }, "known")).email });
    await settleAfterResponseWork();
    const seen = suite.smtp.messages.length;
    const unknown = await project.post("request-password-reset", { email: uniqueEmail("ghost") });
    await settleAfterResponseWork();
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    expect(suite.smtp.messages.length).toBe(seen);

    const missing = await project.post("request-password-reset", {});
    expect(missing.status).toBe(422);
    expect(missing.body?.issues).toEqual([{ path: "email", message: "is required" }]);
  });
});
