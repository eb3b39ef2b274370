import { isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { FormState } from "./form-state";

/**
 * Turns what an action threw into form state: an AppError's public message and issues (matched to
 * the form's field paths), anything else a generic message — the details go to the server log only.
 */
export function toFormState(error: unknown, options: { fields?: readonly string[]; values?: Record<string, string>; action?: string } = {}): FormState {
  const state: FormState = { ok: false, values: options.values };
  if (isAppError(error) && error.isPublic) {
    state.error = capitalize(error.message);
    const fields = new Set(options.fields ?? []);
    for (const issue of error.issues ?? []) {
      const field = matchField(issue.path, fields);
      if (field) {
        state.fieldErrors ??= {};
        state.fieldErrors[field] ??= capitalize(issue.message);
      } else {
        (state.otherIssues ??= []).push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
      }
    }
    if (error.field && fields.has(error.field) && !state.fieldErrors?.[error.field]) {
      state.fieldErrors = { ...state.fieldErrors, [error.field]: capitalize(error.message) };
    }
    return state;
  }
  log.error("dashboard action failed", { action: options.action, error: error instanceof Error ? error.message : String(error) });
  state.error = "Something went wrong on our side. Please try again.";
  return state;
}

/** `database.url` matches the field `database.url`; `mail.port` with only `mail` known matches `mail`. */
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
