import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import { hashPassword, PASSWORD_RULES, verifyPassword } from "@/lib/auth/password";
import { assertNotBlockedByFailures, recordFailures, signInFailureSubjects } from "@/lib/auth/dashboard-auth-rate-limits";
import type { AuthenticatedUser } from "./authenticate-user";

export const changePasswordInput = z.object({
  currentPassword: z.string().min(1, "enter your current password").max(PASSWORD_RULES.maxLength),
  newPassword: z.string().min(PASSWORD_RULES.minLength, `must be at least ${PASSWORD_RULES.minLength} characters`).max(PASSWORD_RULES.maxLength),
});

/**
 * Changes a signed-in user's password; the current one is required. Ends every session of the user
 * (sessionVersion + 1, in the same statement as the new hash) and answers the user with the new
 * version, so that the caller can give its own session a fresh token. Wrong current passwords count
 * as sign-in failures of the account and the client, under the same limits as the sign-in form.
 */
export async function changePassword(options: { userId: string; input: unknown; clientIp: string }): Promise<AuthenticatedUser> {
  const parsed = changePasswordInput.safeParse(options.input);
  if (!parsed.success) throw new AppError("validation_failed", "invalid password change", { issues: issuesFromZod(parsed.error) });
  const db = await getPlatformDb();
  const [user] = await db.select().from(users).where(eq(users.id, options.userId)).limit(1);
  if (!user) throw new AppError("unauthorized", "sign in again to change your password");
  if (!user.passwordHash) throw new AppError("bad_request", "this account signs in with GitHub and has no password to change");
  const subjects = signInFailureSubjects(user.email, options.clientIp);
  await assertNotBlockedByFailures(subjects);
  if (!(await verifyPassword(parsed.data.currentPassword, user.passwordHash))) {
    await recordFailures(subjects);
    throw new AppError("validation_failed", "the current password is incorrect", { issues: [{ path: "currentPassword", message: "is incorrect" }] });
  }
  const [updated] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(parsed.data.newPassword), sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, user.id))
    .returning({ sessionVersion: users.sessionVersion });
  return { id: user.id, email: user.email, name: user.name, sessionVersion: updated?.sessionVersion ?? user.sessionVersion + 1 };
}
