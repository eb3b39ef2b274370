import type { AutomationJob } from "./automation-job";
import type { AddOptions } from "./automation-queue";
import { getAutomationQueue } from "./get-automation-queue";

/**
 * Hands runs to the queue; resolves once the queue holds them (with Redis: stored there, so they
 * survive this process), never after they ran. A job whose id the queue already knows is skipped.
 * Rejects with AppError("unavailable") when the queue cannot take them; callers decide what the
 * answer says. Not an async function: it is on the path of every records API write that an
 * automation listens to (see queueRecordTriggers).
 */
export function enqueueAutomationJobs(jobs: readonly AutomationJob[], options?: AddOptions): Promise<void> {
  if (jobs.length === 0) return Promise.resolve();
  try {
    return getAutomationQueue().add(jobs, options);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
