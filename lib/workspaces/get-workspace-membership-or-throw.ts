import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships, workspaces, type WorkspaceRole } from "@/lib/platform-db/schema";

export interface WorkspaceMembership {
  workspaceId: string;
  workspaceName: string;
  role: WorkspaceRole;
}

/**
 * The user's membership, or not_found: a workspace someone is not a member of does not exist for
 * them. With `requireAdmin`, members get forbidden.
 */
export async function getWorkspaceMembershipOrThrow(options: { workspaceId: string; userId: string; requireAdmin?: boolean }): Promise<WorkspaceMembership> {
  const db = await getPlatformDb();
  const [row] = await db
    .select({ workspaceId: workspaces.id, workspaceName: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.workspaceId, options.workspaceId), eq(memberships.userId, options.userId)))
    .limit(1);
  if (!row) throw new AppError("not_found", "workspace not found");
  if (options.requireAdmin && row.role !== "admin") throw new AppError("forbidden", "only workspace admins can do this");
  return row;
}
