import "server-only";
import { isAppError } from "@/lib/errors";
import { toActionFailure } from "@/lib/http/action-failure";
import type { ConnectionTestResult } from "./test-database-connection";

/** A connection test always answers with a sentence: invalid input and refusals become that sentence too. */
export function connectionTestFailure(error: unknown): ConnectionTestResult {
  if (isAppError(error) && error.code === "validation_failed") {
    const issue = error.issues?.[0];
    if (issue?.path === "database.url") return { ok: false, message: `The connection URL ${issue.message}.`.replace(/\.\.$/, ".") };
    return { ok: false, message: sentence(issue?.message ?? error.message) };
  }
  return { ok: false, message: toActionFailure(error, { action: "test-connection" }).error };
}

function sentence(text: string): string {
  const capitalized = text ? text[0]!.toUpperCase() + text.slice(1) : text;
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
