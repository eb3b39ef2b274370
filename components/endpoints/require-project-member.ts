import { AppError, isAppError } from "@/lib/errors";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { roleAllows, type ProjectAction } from "@/lib/auth/permissions";
import { getProjectOrThrow, type ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getWorkspaceMembershipOrThrow, type WorkspaceMembership } from "@/lib/workspaces/get-workspace-membership-or-throw";

export interface ProjectMember {
  userId: string;
  row: ProjectRow;
  membership: WorkspaceMembership;
}

/**
 * The check every dashboard action of a project's content runs before touching anything: the
 * signed-in user is a member of the project's workspace (a project outside their workspaces is
 * not_found, exactly like one that does not exist) and their role allows `action`.
 */
export async function requireProjectMember(projectId: string, action: ProjectAction): Promise<ProjectMember> {
  const userId = await getCurrentUserId();
  let row: ProjectRow;
  let membership: WorkspaceMembership;
  try {
    row = await getProjectOrThrow({ projectId });
    membership = await getWorkspaceMembershipOrThrow({ workspaceId: row.workspaceId, userId });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new AppError("not_found", "project not found");
    throw error;
  }
  if (!roleAllows(membership.role, action)) throw new AppError("forbidden", "your role does not allow this");
  return { userId, row, membership };
}
