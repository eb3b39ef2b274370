import { cache } from "react";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { findUserOfSessionToken, sessionCookieName, type SessionUser } from "@/lib/auth/session";

export type CurrentUser = SessionUser;

/** next-auth's session token from the request cookies; large tokens are split into `name.0`, `name.1`, ... */
async function readSessionToken(): Promise<string | undefined> {
  const store = await cookies();
  const name = sessionCookieName();
  const whole = store.get(name)?.value;
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; ; i++) {
    const chunk = store.get(`${name}.${i}`)?.value;
    if (chunk === undefined) break;
    chunks.push(chunk);
  }
  return chunks.length ? chunks.join("") : undefined;
}

/**
 * The signed-in user, or null when there is no valid session: none, expired, revoked ("sign out
 * everywhere", a password change) or its user no longer exists (a session outlives a reset
 * platform database). Checked against the database on every request (see findUserOfSessionToken).
 */
export const getCurrentUserOrNull = cache(async (): Promise<CurrentUser | null> => findUserOfSessionToken(await readSessionToken()));

/** The signed-in dashboard user's id from the session cookie (server components and actions), or null. */
export const getCurrentUserIdOrNull = cache(async (): Promise<string | null> => (await getCurrentUserOrNull())?.id ?? null);

function signInPath(returnTo?: string): string {
  return returnTo ? `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}` : "/sign-in";
}

/** The signed-in user; redirects to /sign-in (then back to `returnTo`) when there is none. */
export async function getCurrentUser(options: { returnTo?: string } = {}): Promise<CurrentUser> {
  const user = await getCurrentUserOrNull();
  if (!user) redirect(signInPath(options.returnTo));
  return user;
}

/** The signed-in user's id for a server action; redirects to /sign-in when there is none. */
export async function getCurrentUserId(options: { returnTo?: string } = {}): Promise<string> {
  return (await getCurrentUser(options)).id;
}
