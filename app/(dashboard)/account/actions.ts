"use server";

import { getActionClientIp } from "@/lib/auth/get-action-client-ip";
import { createSessionToken, sessionCookieName, sessionCookieOptions } from "@/lib/auth/session";
import { changePassword } from "@/lib/accounts/change-password";
import { succeed, type FormState } from "@/lib/http/action-result";
import { userAction } from "@/lib/http/user-action";
import { deleteSessionCookies } from "../delete-session-cookies";

/** Changes the password, which ends every session; this browser gets a fresh one so it stays signed in. */
export const changePasswordAction = userAction(
  async ({ userId }, _previous: FormState, formData: FormData) => {
    const input = { currentPassword: String(formData.get("currentPassword") ?? ""), newPassword: String(formData.get("newPassword") ?? "") };
    const user = await changePassword({ userId, input, clientIp: await getActionClientIp() });
    const store = await deleteSessionCookies();
    store.set(sessionCookieName(), await createSessionToken(user), sessionCookieOptions());
    return succeed(undefined, { message: "Your password was changed. Every other session has been signed out." });
  },
  { name: "change-password", fields: ["currentPassword", "newPassword"], returnTo: "/account" },
);
