import { isAppError, type ErrorIssue } from "@/lib/errors";
import { nextScheduleTimes } from "@/lib/automations/next-schedule-times";

export type SchedulePreview = { ok: true; times: Date[] } | { ok: false; issues: ErrorIssue[] };

/**
 * The next `count` times a schedule fires after `from`, or its problems with the paths the server
 * uses (`cron`, `timezone`): the editor recomputes this as the owner types, with the same rules
 * the save applies (lib/automations/schedule-rules.ts).
 */
export function previewSchedule(schedule: { cron: string; timezone: string }, from: Date, count = 3): SchedulePreview {
  try {
    return { ok: true, times: nextScheduleTimes({ cron: schedule.cron.trim(), timezone: schedule.timezone, count, from }) };
  } catch (error) {
    if (isAppError(error) && error.issues) return { ok: false, issues: error.issues };
    return { ok: false, issues: [{ path: "cron", message: "is not a valid cron expression" }] };
  }
}

/** A fire time as the owner reads it: in the schedule's own zone, to the minute. */
export function formatScheduleTime(date: Date, timezone: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", {
      weekday: "short",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: timezone,
      timeZoneName: "short",
    }).format(date);
  } catch {
    return date.toISOString();
  }
}
