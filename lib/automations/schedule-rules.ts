import { CronExpressionParser } from "cron-parser";
import type { ErrorIssue } from "@/lib/errors";

/**
 * What a schedule trigger must be (browser-safe, so the editor checks the same way): a classic
 * five-field cron expression (minute hour day-of-month month day-of-week), which can fire at most
 * once a minute, in an IANA time zone. Seconds fields, macros (@daily) and hashed values (H, a
 * random minute chosen anew on every parse) are refused.
 */
export const CRON_FIELD_COUNT = 5;

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The cron expression's problem, or null; checked in UTC (the time zone is checked on its own). */
function cronProblem(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== CRON_FIELD_COUNT) {
    return `must have exactly ${CRON_FIELD_COUNT} fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  }
  // A lone H (not the h of THU).
  if (/(?<![a-z])h(?![a-z])/i.test(cron)) return "hashed values (H) are not supported";
  try {
    // next() proves the expression ever fires (cron-parser refuses dates like 31 April while parsing).
    CronExpressionParser.parse(cron, { tz: "UTC" }).next();
    return null;
  } catch (error) {
    return `is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Issues of a schedule with paths `cron` and `timezone` (the caller adds its prefix, e.g. `trigger.`). */
export function scheduleIssues(schedule: { cron: string; timezone: string }): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const problem = cronProblem(schedule.cron);
  if (problem) issues.push({ path: "cron", message: problem });
  if (!isValidTimeZone(schedule.timezone)) {
    issues.push({ path: "timezone", message: "must be an IANA time zone such as Europe/Berlin or UTC" });
  } else if (!problem) {
    // Intl knows some zones (UTC offsets such as +01:00) the cron library does not.
    try {
      CronExpressionParser.parse(schedule.cron, { tz: schedule.timezone }).next();
    } catch {
      issues.push({ path: "timezone", message: "must be an IANA time zone such as Europe/Berlin or UTC" });
    }
  }
  return issues;
}
