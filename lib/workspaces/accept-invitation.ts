import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { invitations, memberships, users } from "@/lib/platform-db/schema";
import { hashInvitationToken } from "./invite-member";

/**
 * Joins the invited workspace. The signed-in user's email must be the invited one; the token works
 * once and expires after 7 days.
 */
export async function acceptInvitation(options: { token: string; userId: string }): Promise<{ workspaceId: string }> {
  const db = await getPlatformDb();
  const [invitation] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, hashInvitationToken(options.token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
    .limit(1);
  if (!invitation) throw new AppError("not_found", "this invitation is invalid, used or expired");
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, options.userId)).limit(1);
  if (!user || user.email.toLowerCase() !== invitation.email.toLowerCase()) {
    throw new AppError("forbidden", `this invitation is for ${invitation.email}; sign in with that address to accept it`);
  }
  await db.transaction(async (tx) => {
    const claimed = await tx
      .update(invitations)
      .set({ acceptedAt: new Date() })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (claimed.length === 0) throw new AppError("not_found", "this invitation is invalid, used or expired");
    await tx
      .insert(memberships)
      .values({ workspaceId: invitation.workspaceId, userId: options.userId, role: invitation.role })
      .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role: sql`excluded.role` } });
  });
  return { workspaceId: invitation.workspaceId };
}
