import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { invitations, memberships, users, type WorkspaceRole } from "@/lib/platform-db/schema";
import { getWorkspaceMembershipOrThrow } from "./get-workspace-membership-or-throw";

export interface WorkspaceMembers {
  members: Array<{ userId: string; email: string; name: string | null; role: WorkspaceRole; joinedAt: Date }>;
  pendingInvitations: Array<{ id: string; email: string; role: WorkspaceRole; expiresAt: Date }>;
}

export async function listMembers(options: { workspaceId: string; actorId: string }): Promise<WorkspaceMembers> {
  await getWorkspaceMembershipOrThrow({ workspaceId: options.workspaceId, userId: options.actorId });
  const db = await getPlatformDb();
  const [members, pendingInvitations] = await Promise.all([
    db
      .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, joinedAt: memberships.createdAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.workspaceId, options.workspaceId))
      .orderBy(asc(memberships.createdAt)),
    db
      .select({ id: invitations.id, email: invitations.email, role: invitations.role, expiresAt: invitations.expiresAt })
      .from(invitations)
      .where(and(eq(invitations.workspaceId, options.workspaceId), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
      .orderBy(asc(invitations.createdAt)),
  ]);
  return { members, pendingInvitations };
}
