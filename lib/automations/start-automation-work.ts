import { and, eq, inArray, sql } from "drizzle-orm";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { runAutomationJob } from "./run-automation-job";
import { setAutomationJobRunner } from "./queue/automation-job-runner";
import { closeAutomationQueue, getAutomationQueue } from "./queue/get-automation-queue";
import { drainUndeliveredJobs } from "./queue/undelivered-jobs";
import { reclaimOutboxSpace } from "./queue/reclaim-outbox-space";
import { startScheduleTicker } from "./schedule/schedule-ticker";

const OUTBOX_SWEEP_INTERVAL_MS = 60_000;
const SWEEP_CONCURRENCY = 8;

/** Re-queues what every project with record or form automations kept while the queue was down, and vacuums their outboxes. */
async function drainOutboxes(): Promise<void> {
  const db = await getPlatformDb();
  const rows = await db
    .selectDistinct({ projectId: automations.projectId })
    .from(automations)
    .where(and(eq(automations.enabled, true), inArray(sql`${automations.trigger}->>'type'`, ["record", "form"])));
  // A few at a time: a project whose database does not answer must not hold up the others' runs.
  const waiting = rows.map((row) => row.projectId);
  const drainNext = async (): Promise<void> => {
    for (let projectId = waiting.shift(); projectId !== undefined; projectId = waiting.shift()) {
      const project = projectId;
      await drainUndeliveredJobs(project, { followRecent: true }).catch((error: unknown) => log.warn("automation outbox could not be drained", { projectId: project, error }));
      await reclaimOutboxSpace(project);
    }
  };
  await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, drainNext));
}

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
  const sweep = () => void drainOutboxes().catch((error: unknown) => log.warn("automation outboxes could not be drained", { error }));
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
