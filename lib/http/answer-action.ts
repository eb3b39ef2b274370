import "server-only";
import { unstable_rethrow } from "next/navigation";
import { AppError } from "@/lib/errors";
import { toActionFailure } from "./action-failure";
import type { ActionResult, ActionSuccess, FormState } from "./action-result";

/** What every server action wrapper of lib/http is told about its action, besides who may run it. */
export interface ActionOptions<Args extends unknown[]> {
  /** The action's name in the log line of an unexpected failure (`create-record`). */
  name: string;
  /** A form's field paths, to which the failure's issues are matched (fieldErrors / otherIssues). */
  fields?: readonly string[];
  /** The non-secret values a form gets back on failure (React resets the form after an action). */
  values?: (...args: Args) => Record<string, string>;
}

/**
 * What a wrapped action is typed to answer: a form action (its last argument the FormData) a form's
 * state, which React's useActionState starts idle; any other action its ActionResult. Both hold
 * every ActionResult, so the wrappers may answer it as either.
 */
export type ActionAnswer<Args extends unknown[], T> = Args extends [...unknown[], FormData] ? FormState<T> : ActionResult<T>;

/**
 * The error mapping that the server action wrappers (projectAction, workspaceAction, userAction,
 * publicAction) share: runs one call of an action and answers its success, or the failure that what
 * it threw maps to (lib/http/action-failure.ts). Redirects and notFound() pass through: Next must
 * see them thrown.
 */
export async function answerAction<Args extends unknown[], T>(options: ActionOptions<Args>, args: Args, run: () => Promise<ActionSuccess<T>>): Promise<ActionResult<T>> {
  try {
    return await run();
  } catch (error) {
    unstable_rethrow(error);
    return toActionFailure(error, { action: options.name, fields: options.fields, values: options.values?.(...args) });
  }
}

const MAX_ID_LENGTH = 100;

/**
 * Refuses, before any lookup, an id argument that is not a short non-empty string: anyone can call
 * a server action with any arguments. `path` names it in the issue (`projectId`), `noun` in its
 * message ("must be a project id").
 */
export function assertIdArgument(value: unknown, path: string, noun: string): asserts value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new AppError("validation_failed", "invalid request", { issues: [{ path, message: `must be a ${noun} id` }] });
  }
}
