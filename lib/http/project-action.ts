import "server-only";
import { unstable_rethrow } from "next/navigation";
import { AppError } from "@/lib/errors";
import { getCurrentUserId } from "@/lib/auth/current-user";
import type { ProjectAction } from "@/lib/auth/permissions";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import type { WorkspaceMembership } from "@/lib/workspaces/get-workspace-membership-or-throw";
import { toActionFailure } from "./action-failure";
import type { ActionResult, ActionSuccess } from "./action-result";
import { requireProjectMember } from "./project-member";

export interface ProjectActionContext {
  projectId: string;
  userId: string;
  project: ProjectRow;
  membership: WorkspaceMembership;
}

/** One permission, or several that are all needed; a function when it depends on the arguments. */
type ActionPermission<Args extends unknown[]> = ProjectAction | readonly ProjectAction[] | ((...args: Args) => ProjectAction | readonly ProjectAction[]);

export interface ProjectActionOptions<Args extends unknown[]> {
  /** The action's name in the log line of an unexpected failure (`create-record`). */
  name: string;
  /** A form's field paths, to which the failure's issues are matched (fieldErrors / otherIssues). */
  fields?: readonly string[];
  /** The non-secret values a form gets back on failure (React resets the form after an action). */
  values?: (...args: Args) => Record<string, string>;
}

const MAX_PROJECT_ID_LENGTH = 100;

/**
 * The one wrapper of every project-scoped server action (in the manner of next-safe-action): the
 * returned action takes the project id first, then `fn`'s own arguments. It resolves the signed-in
 * user (redirecting to /sign-in when there is none), checks that they are a member of the project's
 * workspace whose role allows `permission` (lib/http/project-member.ts, the check of the API routes
 * too), runs `fn`, and answers the one ActionResult: `fn`'s success, or the failure an AppError maps
 * to — anything else is a generic sentence and one log line. Redirects and notFound() thrown by
 * `fn` pass through. The actions' origin is checked by Next itself (same-origin server actions).
 */
export function projectAction<Args extends unknown[], T>(
  permission: ActionPermission<Args>,
  fn: (context: ProjectActionContext, ...args: Args) => Promise<ActionSuccess<T>>,
  options: ProjectActionOptions<Args>,
): (projectId: string, ...args: Args) => Promise<ActionResult<T>> {
  return async (projectId, ...args) => {
    try {
      if (typeof projectId !== "string" || projectId.length === 0 || projectId.length > MAX_PROJECT_ID_LENGTH) {
        throw new AppError("validation_failed", "invalid request", { issues: [{ path: "projectId", message: "must be a project id" }] });
      }
      const needed = typeof permission === "function" ? permission(...args) : permission;
      const userId = await getCurrentUserId();
      const member = await requireProjectMember({ projectId, userId, permission: needed, requireAll: true });
      return await fn({ projectId, ...member }, ...args);
    } catch (error) {
      unstable_rethrow(error);
      return toActionFailure(error, { action: options.name, fields: options.fields, values: options.values?.(...args) });
    }
  };
}
