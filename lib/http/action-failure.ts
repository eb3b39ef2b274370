import "server-only";
import { isAppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import type { ActionFailure } from "./action-result";

export interface ActionFailureOptions {
  /** The action's name in the log line (`create-record`). */
  action: string;
  /** The form's field paths: the issues are matched to them (`mail.port` with only `mail` known matches `mail`). */
  fields?: readonly string[];
  /** The non-secret values to put back in the form. */
  values?: Record<string, string>;
}

/**
 * Turns what a server action threw into its failure answer: an AppError's public message, issues
 * and code; anything else a generic sentence, and one log line with the details (a server action
 * has no Request, so the line carries a fresh request id of its own).
 */
export function toActionFailure(error: unknown, options: ActionFailureOptions): ActionFailure {
  if (isAppError(error) && error.isPublic) {
    const issues = [...(error.issues ?? [])];
    if (error.field && !issues.some((issue) => issue.path === error.field)) issues.push({ path: error.field, message: error.message });
    const failure: ActionFailure = { ok: false, error: capitalize(error.message), issues, code: error.code, values: options.values };
    const fields = new Set(options.fields ?? []);
    for (const issue of error.issues ?? []) {
      const field = matchField(issue.path, fields);
      if (field) {
        failure.fieldErrors ??= {};
        failure.fieldErrors[field] ??= capitalize(issue.message);
      } else {
        (failure.otherIssues ??= []).push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
      }
    }
    if (error.field && fields.has(error.field) && !failure.fieldErrors?.[error.field]) {
      failure.fieldErrors = { ...failure.fieldErrors, [error.field]: capitalize(error.message) };
    }
    return failure;
  }
  const cause = isAppError(error) ? (error.cause ?? error) : error;
  log.error("dashboard action failed", { requestId: newId("request"), action: options.action, code: isAppError(error) ? error.code : "internal", error: cause });
  return { ok: false, error: "Something went wrong on our side. Please try again.", issues: [], values: options.values };
}

function matchField(path: string, fields: Set<string>): string | undefined {
  const parts = path.split(".");
  for (let length = parts.length; length > 0; length--) {
    const candidate = parts.slice(0, length).join(".");
    if (fields.has(candidate)) return candidate;
  }
  return undefined;
}

function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}
