import type { NextAuthOptions } from "next-auth";
import { decode } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import GithubProvider from "next-auth/providers/github";
import { getConfig } from "@/lib/config";
import { authenticateUser } from "@/lib/accounts/authenticate-user";
import { upsertGithubUser } from "@/lib/accounts/upsert-github-user";
import { readOrCreateGeneratedSecret } from "./generated-secret";

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function getAuthSecret(): string {
  return getConfig().NEXTAUTH_SECRET ?? readOrCreateGeneratedSecret("nextauth-secret", "NEXTAUTH_SECRET");
}

function usesSecureCookies(): boolean {
  return (getConfig().NEXTAUTH_URL ?? "").startsWith("https://");
}

export function sessionCookieName(): string {
  return `${usesSecureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

/** next-auth for the dashboard: email + password always, GitHub when its variables are set. JWT in an httpOnly cookie. */
export function getAuthOptions(): NextAuthOptions {
  const config = getConfig();
  return {
    secret: getAuthSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const user = await authenticateUser({ email: credentials.email, password: credentials.password });
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
      ...(config.GITHUB_ID && config.GITHUB_SECRET ? [GithubProvider({ clientId: config.GITHUB_ID, clientSecret: config.GITHUB_SECRET })] : []),
    ],
    callbacks: {
      async jwt({ token, user, account, profile }) {
        if (account?.provider === "github" && profile) {
          const email = (profile as { email?: string | null }).email ?? user?.email;
          if (!email) throw new Error("GitHub did not share an email address");
          const linked = await upsertGithubUser({ githubId: String(account.providerAccountId), email, name: user?.name });
          token.uid = linked.id;
        } else if (user) {
          token.uid = user.id;
        }
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
  if (!token) return null;
  try {
    const payload = await decode({ token, secret: getAuthSecret() });
    return typeof payload?.uid === "string" ? payload.uid : null;
  } catch {
    return null;
  }
}
