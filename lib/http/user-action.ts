import "server-only";
import { getCurrentUserId } from "@/lib/auth/current-user";
import type { ActionSuccess } from "./action-result";
import { answerAction, type ActionAnswer, type ActionOptions } from "./answer-action";

export interface UserActionOptions<Args extends unknown[]> extends ActionOptions<Args> {
  /** Where sign-in sends the user back to, when the action finds no one signed in. */
  returnTo?: string | ((...args: Args) => string);
}

/**
 * The wrapper of a server action for the signed-in user's own things (their account, a workspace
 * they create, an invitation they accept): it resolves the user (redirecting to /sign-in when there
 * is none), runs `fn` and answers the one ActionResult (lib/http/answer-action.ts). What the action
 * reaches through an id it takes is checked by the service it calls.
 */
export function userAction<Args extends unknown[], T = undefined>(
  fn: (context: { userId: string }, ...args: Args) => Promise<ActionSuccess<T>>,
  options: UserActionOptions<Args>,
): (...args: Args) => Promise<ActionAnswer<Args, T>> {
  return (...args) =>
    answerAction(options, args, async () => {
      const returnTo = typeof options.returnTo === "function" ? options.returnTo(...args) : options.returnTo;
      const userId = await getCurrentUserId({ returnTo });
      return fn({ userId }, ...args);
    }) as Promise<ActionAnswer<Args, T>>;
}
