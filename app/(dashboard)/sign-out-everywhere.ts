"use server";

import { redirect } from "next/navigation";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { revokeUserSessions } from "@/lib/accounts/revoke-user-sessions";
import { deleteSessionCookies } from "./delete-session-cookies";

/** Ends every session of the signed-in user, this one included, then goes to the sign-in page. */
export async function signOutEverywhereAction(): Promise<void> {
  const userId = await getCurrentUserId();
  await revokeUserSessions(userId);
  await deleteSessionCookies();
  redirect("/sign-in");
}
