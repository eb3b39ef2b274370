import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { END_USER_TOKEN_TTL_SECONDS, signEndUserToken } from "@/lib/end-users/end-user-token";
import { getEndUserTokenKey } from "@/lib/end-users/end-user-token-key";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";
import { markSocketIp, SOCKET_IP_HEADER } from "@/lib/http/client-ip";
import type { IncomingHttpHeaders } from "node:http";
import { verifyEndUserToken } from "@/lib/end-users/verify-end-user-token";
import { isAppError } from "@/lib/errors";
import { CLIENT_IP_HEADER, CUSTOMERS_SCHEMA, endUserTest, nextMailTo, PASSWORD, tokenFromMail, uniqueEmail, type EndUserProject } from "@/test/support/end-user-suite";

const MEMBERS_SCHEMA = { name: "members", kind: "auth", fields: [] };

const it = endUserTest({ schemas: [CUSTOMERS_SCHEMA, MEMBERS_SCHEMA, { name: "orders", kind: "collection", fields: [] }] })
  .extend("other", { scope: "file" }, ({ suite }) => suite.createProject())
  /** Two accounts of the project, logged in. */
  .extend("ana", { scope: "file" }, ({ project }) => registerAndLogIn(project, "ana"))
  .extend("bob", { scope: "file" }, ({ project }) => registerAndLogIn(project, "bob"));

interface Account {
  email: string;
  id: string;
  token: string;
  epoch: string;
}

async function registerAndLogIn(target: EndUserProject, label: string, schema = "customers"): Promise<Account> {
  const email = uniqueEmail(label);
  const body = schema === "customers" ? { email, password: PASSWORD, displayName: label } : { email, password: PASSWORD };
  const registered = await target.post("register", body, { schema });
  expect(registered.status).toBe(201);
  const login = await target.post("login", { email, password: PASSWORD }, { schema });
  expect(login.status).toBe(200);
  const id = String(registered.body?.id);
  const [stored] = await target.store.findByIds(schema, [id]);
  return { email, id, token: String(login.body?.token), epoch: String(stored?._tokenEpoch) };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const partsOf = (token: string) => token.split(".") as [string, string, string];
const payloadOf = (token: string) => JSON.parse(Buffer.from(partsOf(token)[1], "base64url").toString("utf8")) as Record<string, unknown>;

async function expectRefused(project: EndUserProject, token: string | null, schema = "customers", message = "invalid token"): Promise<void> {
  const me = await project.me(token, { schema });
  expect(me.status, token ?? "no token").toBe(401);
  expect(me.body).toEqual({ error: message, code: "unauthorized" });
  expect(me.headers.get("www-authenticate")).toBe('Bearer realm="end-users"');
}

describe("end-user session tokens", () => {
  it("accepts the genuine token (the baseline of every refusal below)", async ({ project, ana }) => {
    const me = await project.me(ana.token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: ana.id, email: ana.email });
  });

  it("refuses a missing, non-bearer or garbage credential", async ({ project, ana }) => {
    await expectRefused(project, null, "customers", "a bearer token is required");
    expect((await project.me(null, { headers: { authorization: `Basic ${ana.token}` } })).status).toBe(401);
    await expectRefused(project, "not.a.jwt");
    await expectRefused(project, "x".repeat(5000));
  });

  it("refuses a token of another auth schema of the same project, both ways", async ({ project, ana }) => {
    const member = await registerAndLogIn(project, "member", "members");
    await expectRefused(project, member.token);
    await expectRefused(project, ana.token, "members");
    // Even for an id that exists in the other schema, signed with the right project key.
    const forged = await signEndUserToken({ projectId: project.projectId, schema: "members", userId: ana.id, epoch: ana.epoch });
    await expectRefused(project, forged.token);
  });

  it("refuses a token of another project, even for the same schema name and user id", async ({ project, other, ana }) => {
    const stranger = await registerAndLogIn(other, "stranger");
    await expectRefused(project, stranger.token);
    const crossProject = await signEndUserToken({ projectId: other.projectId, schema: "customers", userId: ana.id, epoch: ana.epoch });
    await expectRefused(project, crossProject.token);
    // The audience says this project, but the key is the other project's.
    const wrongKey = await new SignJWT({ ver: ana.epoch })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(ana.id)
      .setAudience(`${project.projectId}:customers`)
      .setIssuer("flowpoint")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(getEndUserTokenKey(other.projectId));
    await expectRefused(project, wrongKey.toString());
  });

  it("refuses an expired token, and accepts one signed just within its 7 days", async ({ project, ana }) => {
    const expired = await signEndUserToken({
      projectId: project.projectId,
      schema: "customers",
      userId: ana.id,
      epoch: ana.epoch,
      now: new Date(Date.now() - (END_USER_TOKEN_TTL_SECONDS + 5) * 1000),
    });
    expect(Date.parse(expired.expiresAt)).toBeLessThan(Date.now());
    await expectRefused(project, expired.token, "customers", "the token has expired");
    const old = await signEndUserToken({
      projectId: project.projectId,
      schema: "customers",
      userId: ana.id,
      epoch: ana.epoch,
      now: new Date(Date.now() - (END_USER_TOKEN_TTL_SECONDS - 60) * 1000),
    });
    expect((await project.me(old.token)).status).toBe(200);
  });

  it("refuses tampered payloads, alg none, other algorithms and wrong signatures", async ({ project, ana, bob }) => {
    const [header, payload, signature] = partsOf(ana.token);
    const claims = payloadOf(ana.token);
    // Another user's id under Ana's signature.
    await expectRefused(project, `${header}.${b64({ ...claims, sub: bob.id })}.${signature}`);
    // A longer lifetime under Ana's signature.
    await expectRefused(project, `${header}.${b64({ ...claims, exp: Number(claims.exp) + 3600 })}.${signature}`);
    // alg: none, with and without a signature.
    const none = b64({ alg: "none", typ: "JWT" });
    await expectRefused(project, `${none}.${payload}.`);
    await expectRefused(project, `${none}.${b64({ ...claims, sub: bob.id })}.`);
    await expectRefused(project, `${none}.${payload}.${signature}`);
    // HS512 with the project's real key: only HS256 is accepted.
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: "HS512", typ: "JWT" }).sign(getEndUserTokenKey(project.projectId));
    await expectRefused(project, hs512);
    // A random key, and a flipped signature byte.
    const randomKey = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(randomBytes(32));
    await expectRefused(project, randomKey);
    const flipped = Buffer.from(signature, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    await expectRefused(project, `${header}.${payload}.${flipped.toString("base64url")}`);
  });

  it("refuses tokens without the epoch claim, with another epoch, or for an account that no longer exists", async ({ project, ana }) => {
    const key = getEndUserTokenKey(project.projectId);
    const base = () =>
      new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(ana.id)
        .setAudience(`${project.projectId}:customers`)
        .setIssuer("flowpoint")
        .setIssuedAt()
        .setExpirationTime("1h");
    await expectRefused(project, await base().sign(key));
    await expectRefused(project, (await signEndUserToken({ projectId: project.projectId, schema: "customers", userId: ana.id, epoch: "guessed" })).token);

    const gone = await registerAndLogIn(project, "gone");
    await project.store.deleteMany("customers", [{ field: "id", op: "eq", value: gone.id }]);
    await expectRefused(project, gone.token);
  });

  it("refuses tokens issued before a password reset; tokens issued after it work", async ({ suite, project }) => {
    const victim = await registerAndLogIn(project, "victim");
    const seen = suite.smtp.messages.length;
    expect((await project.post("request-password-reset", { email: victim.email })).status).toBe(202);
    await settleAfterResponseWork();
    const resetToken = tokenFromMail(await nextMailTo(suite.smtp, victim.email, seen));
    // Resetting does not end the session by itself until it succeeds.
    expect((await project.me(victim.token)).status).toBe(200);
    expect((await project.post("reset-password", { token: resetToken, password: "fresh passphrase" })).status).toBe(200);

    await expectRefused(project, victim.token);
    const after = await project.post("login", { email: victim.email, password: "fresh passphrase" });
    expect((await project.me(String(after.body?.token))).status).toBe(200);
  });

  it("verifyEndUserToken refuses with unauthorized for a schema that is not an auth schema", async ({ project, ana }) => {
    for (const schema of ["orders", "nope"]) {
      const forged = await signEndUserToken({ projectId: project.projectId, schema, userId: ana.id, epoch: ana.epoch });
      const error = await verifyEndUserToken({ projectId: project.projectId, schema, token: forged.token }).catch((caught: unknown) => caught);
      expect(isAppError(error) && error.code).toBe("unauthorized");
    }
  });
});

describe("single-use tokens under concurrency", () => {
  it("verifies with one token exactly once when two requests race", async ({ suite, project }) => {
    const email = uniqueEmail("race-verify");
    const seen = suite.smtp.messages.length;
    expect((await project.post("register", { email, password: PASSWORD, displayName: "Racer" })).status).toBe(201);
    const token = tokenFromMail(await nextMailTo(suite.smtp, email, seen));
    const answers = await Promise.all([1, 2, 3].map(() => project.post("verify-email", { token })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
  });

  it("resets with one token exactly once when two requests race", async ({ suite, project }) => {
    const email = uniqueEmail("race-reset");
    expect((await project.post("register", { email, password: PASSWORD, displayName: "Racer" })).status).toBe(201);
    const seen = suite.smtp.messages.length;
    await project.post("request-password-reset", { email });
    await settleAfterResponseWork();
    const token = tokenFromMail(await nextMailTo(suite.smtp, email, seen));
    const answers = await Promise.all(["first passphrase", "second passphrase"].map((password) => project.post("reset-password", { token, password })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = answers[0]?.status === 200 ? "first passphrase" : "second passphrase";
    expect((await project.post("login", { email, password: winner })).status).toBe(200);
  });
});

describe("no secrets in any answer", () => {
  it("keeps hashes, epochs and tokens out of every auth answer's raw JSON", async ({ suite, project }) => {
    const email = uniqueEmail("secretive");
    let seen = suite.smtp.messages.length;
    const texts: string[] = [];
    const registered = await project.post("register", { email, password: PASSWORD, displayName: "Sec" });
    texts.push(registered.text);
    const verification = tokenFromMail(await nextMailTo(suite.smtp, email, seen));
    texts.push((await project.post("verify-email", { token: verification })).text);
    seen = suite.smtp.messages.length;
    texts.push((await project.post("request-password-reset", { email })).text);
    await settleAfterResponseWork();
    const reset = tokenFromMail(await nextMailTo(suite.smtp, email, seen));
    texts.push((await project.post("reset-password", { token: reset, password: "new secret passphrase" })).text);
    const login = await project.post("login", { email, password: "new secret passphrase" });
    texts.push(login.text.replace(String(login.body?.token), ""));
    texts.push((await project.me(String(login.body?.token))).text);

    const [stored] = await project.store.findByIds("customers", [String(registered.body?.id)]);
    const secrets = [PASSWORD, "new secret passphrase", verification, reset, String(stored?.passwordHash), String(stored?._tokenEpoch)];
    for (const text of texts) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/passwordHash|"_[a-zA-Z]|scrypt\$/);
    }
  });
});

describe("rate limits", () => {
  async function expect429(answer: { status: number; headers: Headers; body: Record<string, unknown> | null }): Promise<void> {
    expect(answer.status).toBe(429);
    const retryAfter = Number(answer.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    expect(answer.headers.get("access-control-expose-headers")).toContain("retry-after");
    expect(String(answer.body?.error)).toContain("too many requests");
  }

  it("limits logins to 10 per minute per email, from any IP, known or not", async ({ project }) => {
    const email = uniqueEmail("brute");
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await project.post("login", { email, password: `guess ${attempt}` }, { ip: `203.0.113.${attempt + 1}` });
      expect(answer.status).toBe(401);
    }
    // A sliding window weighs the previous minute's count down as time passes, so a run that
    // crosses a minute boundary may see a few extra attempts pass; never fewer than 10.
    let answer = await project.post("login", { email, password: "guess 11" }, { ip: "203.0.113.99" });
    for (let extra = 0; answer.status === 401 && extra < 10; extra++) {
      answer = await project.post("login", { email, password: `guess ${12 + extra}` }, { ip: "203.0.113.99" });
    }
    await expect429(answer);
    // Another email from the same IP is unaffected.
    expect((await project.post("login", { email: uniqueEmail("innocent"), password: "x" }, { ip: "203.0.113.1" })).status).toBe(401);
  }, 120_000);

  it("limits logins to 30 per minute per IP", async ({ project }) => {
    const ip = "203.0.113.200";
    for (let attempt = 0; attempt < 30; attempt++) {
      // Malformed requests count too (and cost no password hashing).
      expect((await project.post("login", { email: `flood${attempt}@customer.example` }, { ip })).status).toBe(422);
    }
    // As above, a run across a minute boundary may see a few extra attempts pass; never fewer than 30.
    let answer = await project.post("login", { email: uniqueEmail("flood"), password: PASSWORD }, { ip });
    for (let extra = 0; answer.status === 401 && extra < 30; extra++) {
      answer = await project.post("login", { email: uniqueEmail("flood"), password: PASSWORD }, { ip });
    }
    await expect429(answer);
    expect((await project.post("login", { email: uniqueEmail("flood") }, { ip: "203.0.113.201" })).status).toBe(422);
  }, 120_000);

  it("limits reset requests to 5 per hour per email and 20 per hour per IP, answering 429 alike for unknown emails", async ({ project }) => {
    const ghost = uniqueEmail("ghost");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await project.post("request-password-reset", { email: ghost }, { ip: `192.0.2.${attempt + 1}` })).status).toBe(202);
    }
    await expect429(await project.post("request-password-reset", { email: ghost }, { ip: "192.0.2.50" }));

    const ip = "192.0.2.100";
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await project.post("request-password-reset", { email: uniqueEmail(`spray${attempt}`) }, { ip })).status).toBe(202);
    }
    await expect429(await project.post("request-password-reset", { email: uniqueEmail("spray") }, { ip }));
    await settleAfterResponseWork();
  });

  it("limits registrations to 20 per hour per IP", async ({ project }) => {
    const ip = "192.0.2.150";
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await project.post("register", { email: "invalid" }, { ip })).status).toBe(422);
    }
    await expect429(await project.post("register", { email: uniqueEmail("late"), password: PASSWORD, displayName: "Late" }, { ip }));
  });

  it("counts each project's limits on its own", async ({ other }) => {
    const ip = "192.0.2.150";
    expect((await other.post("register", { email: "invalid" }, { ip })).status).toBe(422);
  });
});

describe("client IP for rate limits", () => {
  it("reads the TRUSTED_PROXY header (its last entry) or the socket address our servers stamp, never a caller's claim", () => {
    const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/", { headers });
    const stamped = (address: string) => {
      const headers: IncomingHttpHeaders = {};
      markSocketIp(headers, address);
      return { [SOCKET_IP_HEADER]: String(headers[SOCKET_IP_HEADER]) };
    };
    try {
      process.env.TRUSTED_PROXY = "x-forwarded-for";
      resetConfigForTests();
      expect(getRequestClientIp(request({ "x-forwarded-for": "6.6.6.6, 203.0.113.7" }))).toBe("203.0.113.7");
      expect(getRequestClientIp(request({ "x-forwarded-for": "not an ip" }))).toBe("unknown");

      process.env.TRUSTED_PROXY = "none";
      resetConfigForTests();
      expect(getRequestClientIp(request({ "x-forwarded-for": "6.6.6.6", ...stamped("127.0.0.1") }))).toBe("127.0.0.1");
      expect(getRequestClientIp(request({ "x-forwarded-for": "6.6.6.6" }))).toBe("unknown");
      // A caller who sends the header itself is not believed: it lacks this process's secret.
      expect(getRequestClientIp(request({ [SOCKET_IP_HEADER]: "198.51.100.1" }))).toBe("unknown");
      expect(getRequestClientIp(request({ [SOCKET_IP_HEADER]: "guess 198.51.100.1" }))).toBe("unknown");
      expect(getRequestClientIp(request(stamped("::FFFF:127.0.0.1")))).toBe("::ffff:127.0.0.1");
    } finally {
      process.env.TRUSTED_PROXY = CLIENT_IP_HEADER;
      resetConfigForTests();
    }
  });
});
