"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { sessionCookieName } from "@/lib/auth/session";
import { revokeUserSessions } from "@/lib/accounts/revoke-user-sessions";

/** Ends every session of the signed-in user, this one included, then goes to the sign-in page. */
export async function signOutEverywhereAction(): Promise<void> {
  const userId = await getCurrentUserId();
  await revokeUserSessions(userId);
  const store = await cookies();
  const name = sessionCookieName();
  for (const cookie of store.getAll()) {
    if (cookie.name === name || cookie.name.startsWith(`${name}.`)) store.delete(cookie.name);
  }
  redirect("/sign-in");
}
