import type { ErrorIssue } from "@/lib/errors";

/*
 * The one answer of every dashboard server action (lib/http/project-action.ts builds it), read by
 * the forms (useFormAction) and the JSON-driven editors alike. Every variant names every key, so a
 * component may read `result.error` or `result.fieldErrors` without narrowing first.
 */

/** Success: the data, and for forms a sentence to show and the non-secret values to put back. */
export interface ActionSuccess<T> {
  ok: true;
  data: T;
  message?: string;
  values?: Record<string, string>;
  error?: undefined;
  issues?: undefined;
  code?: undefined;
  fieldErrors?: undefined;
  otherIssues?: undefined;
}

/**
 * Failure: a public message, the service's issues with their paths (`fields.2.values`,
 * `database.url`) so an editor can put each next to its input, the AppError code (an editor reacts
 * to conflicts differently), and for forms the issues matched to its fields and those matching none.
 */
export interface ActionFailure {
  ok: false;
  error: string;
  issues: ErrorIssue[];
  code?: string;
  fieldErrors?: Record<string, string>;
  otherIssues?: string[];
  values?: Record<string, string>;
  data?: undefined;
  message?: undefined;
}

export type ActionResult<T = undefined> = ActionSuccess<T> | ActionFailure;

/** A form's state before its first answer. */
export interface ActionIdle {
  ok?: undefined;
  data?: undefined;
  message?: undefined;
  values?: undefined;
  error?: undefined;
  issues?: undefined;
  code?: undefined;
  fieldErrors?: undefined;
  otherIssues?: undefined;
}

/** What a form holds (useActionState): nothing yet, or the last answer of its action. */
export type FormState<T = undefined> = ActionResult<T> | ActionIdle;

export const EMPTY_FORM_STATE: ActionIdle = {};

/** A successful answer: `succeed()`, `succeed(data)`, `succeed(undefined, { message: "Saved." })`. */
export function succeed(): ActionSuccess<undefined>;
export function succeed<T>(data: T, extras?: { message?: string; values?: Record<string, string> }): ActionSuccess<T>;
export function succeed<T>(data?: T, extras: { message?: string; values?: Record<string, string> } = {}): ActionSuccess<T | undefined> {
  return { ok: true, data, ...extras };
}

/** The error shown under one field. */
export function fieldError(state: FormState<unknown> | undefined, path: string): string | undefined {
  return state?.fieldErrors?.[path];
}
