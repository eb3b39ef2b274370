/**
 * What a dashboard server action hands back to its form (useActionState): a public error message,
 * errors per field (keyed by the service's issue path, e.g. `database.url`), issues that match no
 * field, and the non-secret values to put back in the form after React resets it.
 */
export interface FormState {
  ok?: boolean;
  message?: string;
  error?: string;
  fieldErrors?: Record<string, string>;
  otherIssues?: string[];
  values?: Record<string, string>;
}

export const EMPTY_FORM_STATE: FormState = {};

/** The error shown under one field. */
export function fieldError(state: FormState | undefined, path: string): string | undefined {
  return state?.fieldErrors?.[path];
}
