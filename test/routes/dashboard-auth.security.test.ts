import { randomBytes } from "node:crypto";
import { afterAll, describe, expect } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closeKv } from "@/lib/kv/get-kv";
import { createSessionToken, sessionCookieName } from "@/lib/auth/session";
import { DASHBOARD_AUTH_RATE_LIMITS } from "@/lib/auth/dashboard-auth-rate-limits";
import { signUpUser } from "@/lib/accounts/sign-up-user";
import { acceptDashboardInvitation } from "@/lib/accounts/accept-dashboard-invitation";
import { revokeUserSessions } from "@/lib/accounts/revoke-user-sessions";
import { changePassword } from "@/lib/accounts/change-password";
import { createProjectFixture, createTestUser, setTestUserPassword } from "@/test/fixtures";
import { caughtAppError } from "@/test/support/caught-app-error";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Dashboard sign-in (next-auth's real route handler over HTTP), sign-up and invitation limits,
 * callbackUrl handling and session revocation. Client IPs come from a test header through
 * TRUSTED_PROXY, random per run, so counters on a shared Redis never collide between runs.
 */
const CLIENT_IP_HEADER = "x-test-client-ip";
const PASSWORD = "correct horse battery staple";
// next-auth's own origin in tests (no NEXTAUTH_URL): where its redirects point.
const NEXT_AUTH_ORIGIN = "http://localhost:3000";
const LIMIT_MESSAGE = /^Too many sign-in attempts, try again in \d+ minutes?$/;
// Every attempt runs scrypt at production cost, on purpose; tests with dozens of them get time.
const SCRYPT_HEAVY_TIMEOUT_MS = 180_000;

function randomIp(): string {
  return `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}::${randomBytes(2).toString("hex")}`;
}

function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(6).toString("hex")}@example.test`;
}

// Before the route server reads the configuration (a fixture, started on first use).
process.env.TRUSTED_PROXY = CLIENT_IP_HEADER;
resetConfigForTests();
afterAll(closeKv);

function setCookiesOf(response: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    const index = pair.indexOf("=");
    cookies.set(pair.slice(0, index), pair.slice(index + 1));
  }
  return cookies;
}

async function csrf(serverUrl: string, ip: string): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${serverUrl}/api/auth/csrf`, { headers: { [CLIENT_IP_HEADER]: ip } });
  expect(response.status).toBe(200);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  const value = setCookiesOf(response).get("next-auth.csrf-token");
  return { token: csrfToken, cookie: `next-auth.csrf-token=${value}` };
}

interface SignInAnswer {
  status: number;
  /** The `error` next-auth's client reads from the answer's URL (what the sign-in form shows). */
  error: string | null;
  url: string;
  retryAfter: string | null;
  sessionCookie: string | undefined;
  ms: number;
}

/** What next-auth's client `signIn("credentials", { redirect: false })` sends. */
async function signInAt(serverUrl: string, email: string, password: string, ip: string, callbackUrl = "/workspaces"): Promise<SignInAnswer> {
  const { token, cookie } = await csrf(serverUrl, ip);
  const started = performance.now();
  const response = await fetch(`${serverUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, [CLIENT_IP_HEADER]: ip },
    body: new URLSearchParams({ email, password, csrfToken: token, callbackUrl, json: "true" }),
  });
  const ms = performance.now() - started;
  const body = (await response.json()) as { url: string };
  const session = setCookiesOf(response).get(sessionCookieName());
  return {
    status: response.status,
    error: new URL(body.url).searchParams.get("error"),
    url: body.url,
    retryAfter: response.headers.get("retry-after"),
    sessionCookie: session ? `${sessionCookieName()}=${session}` : undefined,
    ms,
  };
}

/**
 * Waits for the next fixed window of a limit when less than `budgetMs` of the current one is left.
 * The limiters' sliding window (Upstash's arithmetic on every backend) weighs the previous window's
 * count down as soon as a new one starts, and a block marker lasts until its window ends: a test
 * whose attempts straddled a boundary would see one attempt fewer counted than it made.
 */
async function startWithinOneWindow(windowSeconds: number, budgetMs: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const leftMs = windowMs - (Date.now() % windowMs);
  if (leftMs < budgetMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
}

/** A series of scrypt-heavy attempts takes tens of seconds on a loaded machine. */
const SIGN_IN_SERIES_BUDGET_MS = 60_000;
/** A series of cheap attempts (validation failures, unknown tokens). */
const CHEAP_SERIES_BUDGET_MS = 15_000;

async function inBatches<T>(count: number, size: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, offset) => run(start + offset)))));
  }
  return results;
}

const it = routeTest
  /** The fixture project's owner, with a password to sign in with. */
  .extend("owner", { scope: "file" }, async ({ project }) => {
    await setTestUserPassword(project.owner.id, PASSWORD);
    return project.owner;
  })
  /** Signs in through the route server's next-auth. */
  .extend(
    "signIn",
    { scope: "file" },
    ({ server }) =>
      (email: string, password: string, ip: string, callbackUrl?: string) =>
        signInAt(server.url, email, password, ip, callbackUrl),
  );

// The owner's password hashes at production cost: the fixtures are built under the hook timeout, not the first test's.
it.beforeAll(({ owner, signIn }) => void [owner, signIn]);

describe("dashboard sign-in through next-auth's route", () => {
  it("signs in with the right password and answers the session cookie", async ({ owner, ownerApi, signIn }) => {
    const answer = await signIn(owner.email, PASSWORD, randomIp());
    expect(answer.status).toBe(200);
    expect(answer.error).toBeNull();
    expect(answer.url).toBe(`${NEXT_AUTH_ORIGIN}/workspaces`);
    expect(answer.sessionCookie).toBeDefined();
    expect((await ownerApi.with({ credentials: { cookie: answer.sessionCookie! } }).fetch("/api-keys")).status).toBe(200);
  });

  it(
    "answers an unknown email exactly like a wrong password, after the same scrypt work",
    async ({ owner, signIn }) => {
      const ip = randomIp();
      const wrong: SignInAnswer[] = [];
      const unknown: SignInAnswer[] = [];
      for (let i = 0; i < 3; i++) {
        wrong.push(await signIn(owner.email, `not the password ${i}`, ip));
        unknown.push(await signIn(uniqueEmail("nobody"), PASSWORD, ip));
      }
      for (const answer of [...wrong, ...unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.error).toBe("CredentialsSignin");
        expect(answer.sessionCookie).toBeUndefined();
      }
      expect(new Set([...wrong, ...unknown].map((answer) => answer.url)).size).toBe(1);
      const median = (answers: SignInAnswer[]) => answers.map((answer) => answer.ms).sort((a, b) => a - b)[1]!;
      // Without the decoy hash an unknown email answers in a few milliseconds; with it, like scrypt.
      expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
    },
    SCRYPT_HEAVY_TIMEOUT_MS,
  );

  it(
    "refuses the 11th attempt on one account after 10 failures, even with the right password and from another IP",
    async ({ signIn }) => {
      const user = await createTestUser("locked");
      await setTestUserPassword(user.id, PASSWORD);
      const { limit, windowSeconds } = DASHBOARD_AUTH_RATE_LIMITS.signInFailuresPerAccount;
      await startWithinOneWindow(windowSeconds, SIGN_IN_SERIES_BUDGET_MS);
      const failures = await inBatches(limit, 2, (i) => signIn(user.email, `wrong password ${i}`, randomIp()));
      expect(failures.map((answer) => answer.error)).toEqual(Array(limit).fill("CredentialsSignin"));

      for (const email of [user.email, user.email.toUpperCase()]) {
        const refused = await signIn(email, PASSWORD, randomIp());
        expect(refused.status).toBe(429);
        expect(refused.error).toMatch(LIMIT_MESSAGE);
        expect(Number(refused.retryAfter)).toBeGreaterThan(0);
        expect(Number(refused.retryAfter)).toBeLessThanOrEqual(windowSeconds);
        expect(refused.sessionCookie).toBeUndefined();
      }
    },
    SCRYPT_HEAVY_TIMEOUT_MS,
  );

  it(
    "limits an unknown email exactly like an existing account",
    async ({ signIn }) => {
      const email = uniqueEmail("ghost");
      const { limit, windowSeconds } = DASHBOARD_AUTH_RATE_LIMITS.signInFailuresPerAccount;
      await startWithinOneWindow(windowSeconds, SIGN_IN_SERIES_BUDGET_MS);
      await inBatches(limit, 2, (i) => signIn(email, `guess ${i}`, randomIp()));
      const refused = await signIn(email, PASSWORD, randomIp());
      expect(refused.status).toBe(429);
      expect(refused.error).toMatch(LIMIT_MESSAGE);
    },
    SCRYPT_HEAVY_TIMEOUT_MS,
  );

  it(
    "refuses a client IP after 30 failures on any accounts, and only that IP",
    async ({ owner, signIn }) => {
      const ip = randomIp();
      const { limit, windowSeconds } = DASHBOARD_AUTH_RATE_LIMITS.signInFailuresPerIp;
      await startWithinOneWindow(windowSeconds, SIGN_IN_SERIES_BUDGET_MS);
      const failures = await inBatches(limit, 3, (i) => signIn(uniqueEmail(`spray-${i}`), PASSWORD, ip));
      expect(failures.every((answer) => answer.status === 401 && answer.error === "CredentialsSignin")).toBe(true);

      const refused = await signIn(owner.email, PASSWORD, ip);
      expect(refused.status).toBe(429);
      expect(refused.error).toMatch(LIMIT_MESSAGE);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.sessionCookie).toBeUndefined();

      const elsewhere = await signIn(owner.email, PASSWORD, randomIp());
      expect(elsewhere.status).toBe(200);
    },
    SCRYPT_HEAVY_TIMEOUT_MS,
  );
});

describe("sign-up and invitation limits", () => {
  it("limits sign-up attempts per client IP, invalid ones included", async () => {
    const ip = randomIp();
    const { limit, windowSeconds } = DASHBOARD_AUTH_RATE_LIMITS.signUpPerIp;
    await startWithinOneWindow(windowSeconds, CHEAP_SERIES_BUDGET_MS);
    for (let i = 0; i < limit; i++) {
      const error = await caughtAppError(signUpUser({ input: { email: uniqueEmail("signup"), password: "short" }, clientIp: ip }));
      expect(error.code).toBe("validation_failed");
    }
    const refused = await caughtAppError(signUpUser({ input: { email: uniqueEmail("signup"), password: PASSWORD }, clientIp: ip }));
    expect(refused.code).toBe("rate_limited");
    expect(refused.message).toMatch(/^Too many sign-up attempts, try again in \d+ minutes?$/);
    expect(Number(refused.headers?.["Retry-After"])).toBeGreaterThan(0);
  });

  it("limits invitation acceptance per user, whatever the IP", async () => {
    const user = await createTestUser("invitee");
    const { limit, windowSeconds } = DASHBOARD_AUTH_RATE_LIMITS.acceptInvitationPerUser;
    await startWithinOneWindow(windowSeconds, CHEAP_SERIES_BUDGET_MS);
    for (let i = 0; i < limit; i++) {
      const error = await caughtAppError(acceptDashboardInvitation({ token: `guess-${i}`, userId: user.id, clientIp: randomIp() }));
      expect(error.code).toBe("not_found");
    }
    const refused = await caughtAppError(acceptDashboardInvitation({ token: "guess-last", userId: user.id, clientIp: randomIp() }));
    expect(refused.code).toBe("rate_limited");
    expect(refused.message).toMatch(/^Too many attempts to accept invitations, try again in \d+ minutes?$/);
    expect(Number(refused.headers?.["Retry-After"])).toBeGreaterThan(0);
  });

  it("limits invitation acceptance per client IP, whatever the user", async () => {
    const ip = randomIp();
    const { limit, windowSeconds } = DASHBOARD_AUTH_RATE_LIMITS.acceptInvitationPerIp;
    // Spread over users so that no user's own counter fills up: only the IP's can.
    const users = await Promise.all([1, 2, 3, 4].map(() => createTestUser("invitee-ip")));
    await startWithinOneWindow(windowSeconds, CHEAP_SERIES_BUDGET_MS);
    for (let i = 0; i < limit; i++) {
      const error = await caughtAppError(acceptDashboardInvitation({ token: `ip-guess-${i}`, userId: users[i % users.length]!.id, clientIp: ip }));
      expect(error.code).toBe("not_found");
    }
    const fresh = await createTestUser("fresh");
    const refused = await caughtAppError(acceptDashboardInvitation({ token: "ip-guess-last", userId: fresh.id, clientIp: ip }));
    expect(refused.code).toBe("rate_limited");
  });
});

describe("callbackUrl through next-auth's route", () => {
  const bypasses = [
    "/\t/evil.example",
    "/%09/evil.example",
    "/\\evil.example",
    "\\/\\/evil.example",
    "//evil.example",
    "/%2F%2Fevil.example",
    "https:evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/\r\n/evil.example",
    "http://127.0.0.1:3911.evil.example/",
  ];

  async function signInPageTarget(serverUrl: string, callbackUrl: string, cookie?: string): Promise<{ status: number; callbackUrl: string | null; cookie: string | undefined }> {
    const response = await fetch(`${serverUrl}/api/auth/signin?${new URLSearchParams({ callbackUrl })}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
    const location = response.headers.get("location") ?? "";
    return {
      status: response.status,
      callbackUrl: new URL(location, NEXT_AUTH_ORIGIN).searchParams.get("callbackUrl"),
      cookie: setCookiesOf(response).get("next-auth.callback-url"),
    };
  }

  it.for(bypasses)("GET /api/auth/signin never sends the browser away: %j", async (value, { server }) => {
    const answer = await signInPageTarget(server.url, value);
    expect(answer.status).toBe(302);
    expect(answer.callbackUrl).toBe(`${NEXT_AUTH_ORIGIN}/workspaces`);
  });

  it("keeps the app's own paths and absolute URLs", async ({ server }) => {
    expect((await signInPageTarget(server.url, "/projects/p_1?tab=keys")).callbackUrl).toBe(`${NEXT_AUTH_ORIGIN}/projects/p_1?tab=keys`);
    expect((await signInPageTarget(server.url, `${NEXT_AUTH_ORIGIN}/invitations/abc`)).callbackUrl).toBe(`${NEXT_AUTH_ORIGIN}/invitations/abc`);
  });

  it("answers a malformed callback-url cookie with the default page, not a 500", async ({ server }) => {
    const response = await fetch(`${server.url}/api/auth/signin`, {
      redirect: "manual",
      headers: { cookie: `next-auth.callback-url=${encodeURIComponent("http://127.0.0.1:3911.evil.example/")}` },
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!, NEXT_AUTH_ORIGIN).searchParams.get("callbackUrl")).toBe(`${NEXT_AUTH_ORIGIN}/workspaces`);
    expect(decodeURIComponent(setCookiesOf(response).get("next-auth.callback-url") ?? "")).toBe(`${NEXT_AUTH_ORIGIN}/workspaces`);
  });

  it("sends a successful sign-in with a foreign or malformed callbackUrl to the default page", async ({ owner, signIn }) => {
    for (const callbackUrl of ["https://evil.example/", "/\t/evil.example", "http://127.0.0.1:3911.evil.example/"]) {
      const answer = await signIn(owner.email, PASSWORD, randomIp(), callbackUrl);
      expect(answer.status).toBe(200);
      expect(answer.url).toBe(`${NEXT_AUTH_ORIGIN}/workspaces`);
    }
    const own = await signIn(owner.email, PASSWORD, randomIp(), "/projects/p_1");
    expect(own.url).toBe(`${NEXT_AUTH_ORIGIN}/projects/p_1`);
  });
});

describe("session revocation", () => {
  it("sign out everywhere ends every existing session: an old cookie gets 401 from the management API", async ({ server, signIn }) => {
    const fixture = await createProjectFixture("Revocation");
    await setTestUserPassword(fixture.owner.id, PASSWORD);
    const signedIn = await signIn(fixture.owner.email, PASSWORD, randomIp());
    const cookies = [fixture.owner.cookie, signedIn.sessionCookie!];
    const call = (cookie: string) => projectApi(server, fixture, { cookie }).fetch("/api-keys");
    for (const cookie of cookies) expect((await call(cookie)).status).toBe(200);

    await revokeUserSessions(fixture.owner.id);

    for (const cookie of cookies) expect((await call(cookie)).status).toBe(401);
    // next-auth's own session endpoint clears the revoked cookie.
    const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: signedIn.sessionCookie! } });
    expect(await session.json()).toEqual({});
    expect(setCookiesOf(session).get(sessionCookieName())).toBe("");

    // Signing in again starts a session under the new version.
    const again = await signIn(fixture.owner.email, PASSWORD, randomIp());
    expect((await call(again.sessionCookie!)).status).toBe(200);
  });

  it("a password change needs the current password, ends every other session and keeps the changer signed in", async ({ server, signIn }) => {
    const fixture = await createProjectFixture("Password change");
    await setTestUserPassword(fixture.owner.id, PASSWORD);
    const other = await signIn(fixture.owner.email, PASSWORD, randomIp());
    const call = (cookie: string) => projectApi(server, fixture, { cookie }).fetch("/api-keys");
    const newPassword = "a brand new passphrase";

    const wrong = await caughtAppError(changePassword({ userId: fixture.owner.id, input: { currentPassword: "not it", newPassword }, clientIp: randomIp() }));
    expect(wrong.code).toBe("validation_failed");
    expect((await call(other.sessionCookie!)).status).toBe(200);

    const changed = await changePassword({ userId: fixture.owner.id, input: { currentPassword: PASSWORD, newPassword }, clientIp: randomIp() });
    expect((await call(other.sessionCookie!)).status).toBe(401);
    expect((await call(fixture.owner.cookie)).status).toBe(401);
    // What the action sets as this browser's new cookie.
    expect((await call(`${sessionCookieName()}=${await createSessionToken(changed)}`)).status).toBe(200);

    expect((await signIn(fixture.owner.email, PASSWORD, randomIp())).status).toBe(401);
    expect((await signIn(fixture.owner.email, newPassword, randomIp())).status).toBe(200);
  });
});
