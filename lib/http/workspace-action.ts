import "server-only";
import { getCurrentUserId } from "@/lib/auth/current-user";
import type { ActionSuccess } from "./action-result";
import { answerAction, assertIdArgument, type ActionAnswer, type ActionOptions } from "./answer-action";

export interface WorkspaceActionContext {
  workspaceId: string;
  userId: string;
}

/**
 * The wrapper of a workspace-scoped server action: the returned action takes the workspace id
 * first, then `fn`'s own arguments. It refuses a malformed id before any lookup, resolves the
 * signed-in user (redirecting to /sign-in when there is none), runs `fn` and answers the one
 * ActionResult (lib/http/answer-action.ts). Membership and role are checked by the workspace
 * service `fn` calls (renameWorkspace, inviteMember… take the actor), so that the dashboard and any
 * other caller share that one check; a workspace outside the user's is not_found there.
 */
export function workspaceAction<Args extends unknown[], T = undefined>(
  fn: (context: WorkspaceActionContext, ...args: Args) => Promise<ActionSuccess<T>>,
  options: ActionOptions<Args>,
): (workspaceId: string, ...args: Args) => Promise<ActionAnswer<Args, T>> {
  return (workspaceId, ...args) =>
    answerAction(options, args, async () => {
      assertIdArgument(workspaceId, "workspaceId", "workspace");
      const userId = await getCurrentUserId();
      return fn({ workspaceId, userId }, ...args);
    }) as Promise<ActionAnswer<Args, T>>;
}
