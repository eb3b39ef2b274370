import { log } from "@/lib/log";
import { queueDueSchedules } from "./queue-due-schedules";

const MINUTE_MS = 60_000;
// Fire just after the minute starts, so that clocks a little behind still see the new minute.
const TICK_OFFSET_MS = 200;

/**
 * Calls queueDueSchedules at every whole minute while the process runs. A tick missed while the
 * process was busy or down is not made up (as cron does). Answers the function that stops it.
 */
export function startScheduleTicker(): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = () => {
    const now = Date.now();
    const nextTick = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    timer = setTimeout(
      () => {
        if (stopped) return;
        queueDueSchedules(new Date(nextTick))
          .catch((error: unknown) => log.error("scheduled automations could not be queued", { tick: new Date(nextTick).toISOString(), error }))
          .finally(() => {
            if (!stopped) schedule();
          });
      },
      nextTick - now + TICK_OFFSET_MS,
    );
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
