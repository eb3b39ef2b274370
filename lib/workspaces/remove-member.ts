import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships } from "@/lib/platform-db/schema";
import { getWorkspaceMembershipOrThrow } from "./get-workspace-membership-or-throw";

/** Admins remove members, and anyone may leave; a workspace always keeps at least one admin. */
export async function removeMember(options: { workspaceId: string; actorId: string; userId: string }): Promise<void> {
  const leaving = options.actorId === options.userId;
  await getWorkspaceMembershipOrThrow({ workspaceId: options.workspaceId, userId: options.actorId, requireAdmin: !leaving });
  const db = await getPlatformDb();
  await db.transaction(async (tx) => {
    const members = await tx.select().from(memberships).where(eq(memberships.workspaceId, options.workspaceId)).for("update");
    const target = members.find((member) => member.userId === options.userId);
    if (!target) throw new AppError("not_found", "member not found");
    const admins = members.filter((member) => member.role === "admin");
    if (target.role === "admin" && admins.length === 1) throw new AppError("conflict", "a workspace needs at least one admin");
    await tx.delete(memberships).where(and(eq(memberships.workspaceId, options.workspaceId), eq(memberships.userId, options.userId)));
  });
}
