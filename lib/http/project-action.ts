import "server-only";
import { getCurrentUserId } from "@/lib/auth/current-user";
import type { ProjectAction } from "@/lib/auth/permissions";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import type { WorkspaceMembership } from "@/lib/workspaces/get-workspace-membership-or-throw";
import type { ActionResult, ActionSuccess } from "./action-result";
import { answerAction, assertIdArgument, type ActionOptions } from "./answer-action";
import { requireProjectMember } from "./project-member";

export interface ProjectActionContext {
  projectId: string;
  userId: string;
  project: ProjectRow;
  membership: WorkspaceMembership;
}

/** One permission, or several that are all needed; a function when it depends on the arguments. */
type ActionPermission<Args extends unknown[]> = ProjectAction | readonly ProjectAction[] | ((...args: Args) => ProjectAction | readonly ProjectAction[]);

/**
 * The one wrapper of every project-scoped server action (in the manner of next-safe-action): the
 * returned action takes the project id first, then `fn`'s own arguments. It resolves the signed-in
 * user (redirecting to /sign-in when there is none), checks that they are a member of the project's
 * workspace whose role allows `permission` (lib/http/project-member.ts, the check of the API routes
 * too), runs `fn`, and answers the one ActionResult: `fn`'s success, or the failure an AppError maps
 * to — anything else is a generic sentence and one log line (lib/http/answer-action.ts). Redirects
 * and notFound() thrown by `fn` pass through. The actions' origin is checked by Next itself
 * (same-origin server actions).
 */
export function projectAction<Args extends unknown[], T>(
  permission: ActionPermission<Args>,
  fn: (context: ProjectActionContext, ...args: Args) => Promise<ActionSuccess<T>>,
  options: ActionOptions<Args>,
): (projectId: string, ...args: Args) => Promise<ActionResult<T>> {
  return (projectId, ...args) =>
    answerAction(options, args, async () => {
      assertIdArgument(projectId, "projectId", "project");
      const needed = typeof permission === "function" ? permission(...args) : permission;
      const userId = await getCurrentUserId();
      const member = await requireProjectMember({ projectId, userId, permission: needed, requireAll: true });
      return fn({ projectId, ...member }, ...args);
    });
}
