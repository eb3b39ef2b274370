import { eq } from "drizzle-orm";
import type { NextAuthOptions } from "next-auth";
import { decode, encode, type JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import GithubProvider from "next-auth/providers/github";
import { getConfig } from "@/lib/config";
import { isAppError, type AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import type { AuthenticatedUser } from "@/lib/accounts/authenticate-user";
import { signInWithPassword } from "@/lib/accounts/sign-in-with-password";
import { upsertGithubUser } from "@/lib/accounts/upsert-github-user";
import { readOrCreateGeneratedSecret } from "./generated-secret";
import { ownOrigins, safeCallbackUrl } from "./safe-callback-url";

/**
 * Session lifetime (documented in docs; keep the text in sync):
 * - A session token (JWT in the httpOnly cookie) is valid for 7 days after it was issued.
 * - next-auth re-issues the token, for another 7 days, when /api/auth/session is read (its client
 *   does so once right after sign-in); updateAge is set explicitly but only matters to database
 *   sessions, which we do not use. So 7 days without that refresh ends a session (idle timeout).
 * - Whatever the refreshes, a session ends 30 days after its sign-in (absolute lifetime).
 * - "Sign out everywhere" and a password change end every session at once (users.sessionVersion).
 */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;
export const SESSION_ABSOLUTE_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export function getAuthSecret(): string {
  return getConfig().NEXTAUTH_SECRET ?? readOrCreateGeneratedSecret("nextauth-secret", "NEXTAUTH_SECRET");
}

function usesSecureCookies(): boolean {
  return (getConfig().NEXTAUTH_URL ?? "").startsWith("https://");
}

export function sessionCookieName(): string {
  return `${usesSecureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

/** What one request tells next-auth's options: who is calling, and where to report a refused sign-in. */
export interface AuthRequestContext {
  /** From getRequestClientIp; "unknown" when the address is not known. */
  clientIp?: string;
  /** Called when a sign-in is refused by a rate limit, so the HTTP answer can say 429 with Retry-After. */
  onSignInRateLimited?: (error: AppError) => void;
}

/** The claims our session tokens carry besides next-auth's own. */
interface SessionClaims {
  /** The user's id. */
  uid: string;
  /** users.sessionVersion when the session began. */
  sv: number;
  /** Epoch seconds of the sign-in; the absolute lifetime counts from here, refreshes do not move it. */
  authTime: number;
}

function stampSession(token: JWT, user: AuthenticatedUser): JWT {
  const claims: SessionClaims = { uid: user.id, sv: user.sessionVersion, authTime: Math.floor(Date.now() / 1000) };
  return Object.assign(token, claims);
}

/**
 * A new session token for a user, exactly as next-auth issues one at sign-in (for the password
 * change, which ends every other session but keeps the user signed in where they made it).
 */
export async function createSessionToken(user: AuthenticatedUser): Promise<string> {
  const token = stampSession({ name: user.name, email: user.email, sub: user.id }, user);
  return encode({ token, secret: getAuthSecret(), maxAge: SESSION_MAX_AGE_SECONDS });
}

/** The attributes next-auth gives its session cookie. */
export function sessionCookieOptions(): { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean; maxAge: number } {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: usesSecureCookies(), maxAge: SESSION_MAX_AGE_SECONDS };
}

/** A signed-in dashboard user as the session shows them. */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/**
 * The user of decoded session claims, or null when the session was revoked (its version is not the
 * user's current one), is past its absolute lifetime, or its user no longer exists. One primary-key
 * read, on every request: revocation takes effect at once on every instance.
 */
async function findSessionUser(claims: JWT): Promise<SessionUser | null> {
  if (typeof claims.uid !== "string") return null;
  // Tokens issued before authTime existed count from their last refresh.
  const signedInAt = typeof claims.authTime === "number" ? claims.authTime : typeof claims.iat === "number" ? claims.iat : 0;
  if (Date.now() / 1000 - signedInAt > SESSION_ABSOLUTE_LIFETIME_SECONDS) return null;
  const db = await getPlatformDb();
  const [user] = await db.select({ id: users.id, email: users.email, name: users.name, sessionVersion: users.sessionVersion }).from(users).where(eq(users.id, claims.uid)).limit(1);
  // Tokens issued before sessionVersion existed count as version 0, the column's default.
  const version = typeof claims.sv === "number" ? claims.sv : 0;
  if (!user || user.sessionVersion !== version) return null;
  return { id: user.id, email: user.email, name: user.name };
}

/** The user of a session token (the cookie's value), or null when it is invalid, expired or revoked. */
export async function findUserOfSessionToken(token: string | undefined): Promise<SessionUser | null> {
  if (!token) return null;
  let claims: JWT | null;
  try {
    claims = await decode({ token, secret: getAuthSecret() });
  } catch {
    return null;
  }
  return claims ? findSessionUser(claims) : null;
}

async function authorizeWithPassword(credentials: Record<string, string> | undefined, context: AuthRequestContext): Promise<AuthenticatedUser | null> {
  if (!credentials?.email || !credentials.password) return null;
  try {
    return await signInWithPassword({ email: credentials.email, password: credentials.password, clientIp: context.clientIp ?? "unknown" });
  } catch (error) {
    // next-auth puts a thrown error's message into the answer; the sign-in form shows this one.
    if (isAppError(error) && error.code === "rate_limited") {
      context.onSignInRateLimited?.(error);
      throw new Error(error.message);
    }
    log.error("dashboard sign-in failed", { error: error instanceof Error ? error.message : String(error) });
    throw new Error("SignInFailed");
  }
}

/** next-auth for the dashboard: email + password always, GitHub when its variables are set. JWT in an httpOnly cookie. */
export function getAuthOptions(context: AuthRequestContext = {}): NextAuthOptions {
  const config = getConfig();
  return {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in" },
    // next-auth's own logger prints whole stacks to the console, also for routine events such as a
    // revoked session being read; ours masks secrets and writes one line.
    logger: {
      error: (code, metadata) => log.warn(`next-auth: ${code}`, { error: (metadata instanceof Error ? metadata : metadata.error)?.message }),
      warn: (code) => log.warn(`next-auth: ${code}`),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: (credentials) => authorizeWithPassword(credentials, context),
      }),
      ...(config.GITHUB_ID && config.GITHUB_SECRET ? [GithubProvider({ clientId: config.GITHUB_ID, clientSecret: config.GITHUB_SECRET })] : []),
    ],
    callbacks: {
      // Every callbackUrl next-auth meets (query, form field, cookie) goes through the same check as
      // the sign-in page's; a malformed one falls back to /workspaces instead of throwing (a 500).
      redirect({ url, baseUrl }) {
        return `${baseUrl}${safeCallbackUrl(url, [baseUrl, ...ownOrigins()])}`;
      },
      async jwt({ token, user, account, profile }) {
        if (account?.provider === "github" && profile) {
          const email = (profile as { email?: string | null }).email ?? user?.email;
          if (!email) throw new Error("GitHub did not share an email address");
          return stampSession(token, await upsertGithubUser({ githubId: String(account.providerAccountId), email, name: user?.name }));
        }
        if (user) return stampSession(token, user as AuthenticatedUser);
        // Reading an existing session (/api/auth/session): a revoked or expired one is cleared.
        if (!(await findSessionUser(token))) throw new Error("session ended");
        return token;
      },
      async session({ session, token }) {
        if (session.user && typeof token.uid === "string") (session.user as { id?: string }).id = token.uid;
        return session;
      },
    },
  };
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return undefined;
}

/**
 * The signed-in dashboard user of a request, from next-auth's session cookie. Works on a plain
 * Fetch Request (route handlers, the production server, tests) without Next's request context.
 */
export async function getSessionUserId(request: Request): Promise<string | null> {
  const name = sessionCookieName();
  const cookieHeader = request.headers.get("cookie");
  let token = readCookie(cookieHeader, name);
  if (!token) {
    // next-auth splits large tokens into name.0, name.1, ...
    const chunks: string[] = [];
    for (let i = 0; ; i++) {
      const chunk = readCookie(cookieHeader, `${name}.${i}`);
      if (chunk === undefined) break;
      chunks.push(chunk);
    }
    token = chunks.length ? chunks.join("") : undefined;
  }
  return (await findUserOfSessionToken(token))?.id ?? null;
}
