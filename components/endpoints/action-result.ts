import { isAppError, type ErrorIssue } from "@/lib/errors";
import { log } from "@/lib/log";

/**
 * What the JSON-driven editors' server actions (schema editor, endpoint editor, test runs) hand
 * back: the data, or a public message with the service's issues and their paths
 * (`fields.2.values`, `steps.2.expression`) so the editor can put each next to its input.
 */
export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

export interface ActionFailure {
  ok: false;
  error: string;
  issues: ErrorIssue[];
  /** The AppError code, so an editor can react to conflicts (409) differently. */
  code?: string;
}

/** An AppError's public message and issues; anything else a generic sentence (details in the server log only). */
export function toActionFailure(error: unknown, action: string): ActionFailure {
  if (isAppError(error) && error.isPublic) {
    const issues = [...(error.issues ?? [])];
    if (error.field && !issues.some((issue) => issue.path === error.field)) issues.push({ path: error.field, message: error.message });
    return { ok: false, error: capitalize(error.message), issues, code: error.code };
  }
  log.error("dashboard action failed", { action, error: error instanceof Error ? error.message : String(error) });
  return { ok: false, error: "Something went wrong on our side. Please try again.", issues: [] };
}

function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}
