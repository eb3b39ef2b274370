import { isAppError } from "@/lib/errors";
import type { ConnectionTestResult } from "@/lib/projects/test-database-connection";
import { toFormState } from "./to-form-state";

/** A connection test always answers with a sentence: invalid input and refusals become that sentence too. */
export function connectionTestFailure(error: unknown): ConnectionTestResult {
  if (isAppError(error) && error.code === "validation_failed") {
    const issue = error.issues?.[0];
    if (issue?.path === "database.url") return { ok: false, message: `The connection URL ${issue.message}.`.replace(/\.\.$/, ".") };
    return { ok: false, message: sentence(issue?.message ?? error.message) };
  }
  return { ok: false, message: toFormState(error, { action: "test-connection" }).error ?? "The test failed." };
}

function sentence(text: string): string {
  const capitalized = text ? text[0]!.toUpperCase() + text.slice(1) : text;
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
