import "server-only";
import type { ActionSuccess } from "./action-result";
import { answerAction, type ActionAnswer, type ActionOptions } from "./answer-action";

/**
 * The wrapper of a server action that anyone may call, signed in or not (sign-up): it runs `fn` and
 * answers the one ActionResult (lib/http/answer-action.ts). Such an action limits itself (the
 * sign-up service counts attempts per client IP).
 */
export function publicAction<Args extends unknown[], T = undefined>(
  fn: (...args: Args) => Promise<ActionSuccess<T>>,
  options: ActionOptions<Args>,
): (...args: Args) => Promise<ActionAnswer<Args, T>> {
  return (...args) => answerAction(options, args, () => fn(...args)) as Promise<ActionAnswer<Args, T>>;
}
