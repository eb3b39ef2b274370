import { CronExpressionParser } from "cron-parser";
import { AppError } from "@/lib/errors";
import { scheduleIssues } from "./schedule-rules";

/** More would only serve to loop; the dashboard shows 3, the scheduler asks for what it missed. */
export const MAX_SCHEDULE_TIMES = 1_000;

/**
 * The next `count` times a schedule fires, strictly after `from` (default: now), in order. The cron
 * expression is read in `timezone`, so "0 9 * * *" in Europe/Berlin is 09:00 Berlin time on both
 * sides of a daylight-saving change (a time that does not exist that day fires at the next one that
 * does). Throws AppError("validation_failed") with `cron`/`timezone` paths for an invalid schedule.
 */
export function nextScheduleTimes(options: { cron: string; timezone: string; count: number; from?: Date }): Date[] {
  const issues = scheduleIssues(options);
  if (issues.length > 0) throw new AppError("validation_failed", "invalid schedule", { issues });
  const count = Math.min(Math.max(0, Math.floor(options.count)), MAX_SCHEDULE_TIMES);
  if (count === 0) return [];
  const expression = CronExpressionParser.parse(options.cron, { tz: options.timezone, currentDate: options.from ?? new Date() });
  return expression.take(count).map((date) => date.toDate());
}
