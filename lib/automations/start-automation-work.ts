import { log } from "@/lib/log";
import { runAutomationJob } from "./run-automation-job";
import { setAutomationJobRunner } from "./queue/automation-job-runner";
import { closeAutomationQueue, getAutomationQueue } from "./queue/get-automation-queue";
import { startScheduleTicker } from "./schedule/schedule-ticker";
import { sweepAutomationOutboxes } from "./sweep-automation-outboxes";

const OUTBOX_SWEEP_INTERVAL_MS = 60_000;

/**
 * Everything a process does in the background for automations: work the queue (unless
 * AUTOMATION_WORKER=off), queue schedules each minute, and re-queue runs left in outboxes and
 * vacuum the outboxes (at start-up and every minute). Called by `npm start`/`npm run dev` and
 * `npm run worker`. Answers the function that stops it all.
 */
export function startAutomationWork(): () => Promise<void> {
  // The queue's worker runs jobs with this (the queue cannot import the runner: see automation-job-runner.ts).
  setAutomationJobRunner(runAutomationJob);
  getAutomationQueue();
  const stopTicker = startScheduleTicker();
  const sweep = () => void sweepAutomationOutboxes().catch((error: unknown) => log.warn("automation outboxes could not be drained", { error }));
  sweep();
  // Any instance picks up what a dead one left between a write and its queueing.
  const sweeper = setInterval(sweep, OUTBOX_SWEEP_INTERVAL_MS);
  sweeper.unref();
  return async () => {
    stopTicker();
    clearInterval(sweeper);
    await closeAutomationQueue();
  };
}
