import { AppError, isAppError } from "@/lib/errors";
import { roleAllows, type ProjectAction } from "@/lib/auth/permissions";
import { getProjectOrThrow, type ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getWorkspaceMembershipOrThrow, type WorkspaceMembership } from "@/lib/workspaces/get-workspace-membership-or-throw";

/** What an entry point needs: one permission, or several of which any one (default) or every one (`requireAll`) is enough. */
export interface PermissionRule {
  permission: ProjectAction | readonly ProjectAction[];
  requireAll?: boolean;
}

/** The permissions of a rule, one list. */
export function neededPermissions(rule: PermissionRule): readonly ProjectAction[] {
  return typeof rule.permission === "string" ? [rule.permission] : rule.permission;
}

/** Whether `has` grants the rule. */
export function ruleAllows(rule: PermissionRule, has: (action: ProjectAction) => boolean): boolean {
  const needed = neededPermissions(rule);
  return rule.requireAll ? needed.every(has) : needed.some(has);
}

export interface ProjectMember {
  userId: string;
  project: ProjectRow;
  membership: WorkspaceMembership;
}

/**
 * The dashboard user's check, shared by the project API routes (withProjectAuth, session calls) and
 * the server actions (projectAction): the user is a member of the project's workspace — a project
 * outside their workspaces is not_found, exactly like one that does not exist — and their role
 * allows the rule (forbidden otherwise; only admin-only actions are refused to members).
 */
export async function requireProjectMember(options: { projectId: string; userId: string } & PermissionRule): Promise<ProjectMember> {
  const member = await findProjectMember(options);
  if (!ruleAllows(options, (action) => roleAllows(member.membership.role, action))) throw new AppError("forbidden", "only workspace admins can do this");
  return member;
}

/** The project and the user's membership of its workspace, or not_found ("project not found") for both a missing project and someone else's; no permission checked (dashboard pages). */
export async function findProjectMember(options: { projectId: string; userId: string }): Promise<ProjectMember> {
  try {
    const project = await getProjectOrThrow({ projectId: options.projectId });
    const membership = await getWorkspaceMembershipOrThrow({ workspaceId: project.workspaceId, userId: options.userId });
    return { userId: options.userId, project, membership };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new AppError("not_found", "project not found");
    throw error;
  }
}
