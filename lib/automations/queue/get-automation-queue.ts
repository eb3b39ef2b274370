import { getConfig } from "@/lib/config";
import { DEFAULT_KEY_PREFIX } from "@/lib/kv/kv";
import { waitUntil } from "@/lib/http/after-response";
import type { AttemptOutcome, AutomationAttempt, AutomationRunnerOptions } from "./automation-attempt";
import type { AutomationJob } from "./automation-job";
import { automationJobRunner } from "./automation-job-runner";
import type { AutomationQueue } from "./automation-queue";
import { BullmqAutomationQueue } from "./bullmq-automation-queue";
import { InProcessAutomationQueue } from "./in-process-automation-queue";

// Dev reloads and Next's separate bundles must share one queue (and one worker) per process.
const holder = globalThis as typeof globalThis & { __automationQueue?: AutomationQueue; __dedicatedAutomationWorker?: boolean };

/**
 * Marks this process as `npm run worker`: it serves no requests and owns no built-in databases, so
 * it leaves the jobs of projects on the built-in database to the app instances (run-automation-job.ts).
 */
export function markDedicatedAutomationWorker(): void {
  holder.__dedicatedAutomationWorker = true;
}

const NO_RUNNER = "no automation job runner is set: startAutomationWork() (start-automation-work.ts) or instrumentation.ts sets it before the queue is used";

/*
 * The runner is the one set at start-up (automation-job-runner.ts): it reaches the whole flow
 * engine and the records service, whose writes queue jobs through this module; importing it here
 * would make a loop.
 */
function runAutomationJob(job: AutomationJob, attempt: AutomationAttempt, signal: AbortSignal, options?: AutomationRunnerOptions): Promise<AttemptOutcome> {
  const runner = automationJobRunner();
  if (!runner) return Promise.reject(new Error(NO_RUNNER));
  return runner(job, attempt, signal, options);
}

/**
 * A queue from the configuration: BullMQ with REDIS_URL, else in this process (embedded mode, or a
 * serverless host without a TCP Redis, where no worker can outlive a request: runs then happen in
 * the function that queued them, kept alive through Next's after() by waitUntil).
 */
export function createAutomationQueue(): AutomationQueue {
  const config = getConfig();
  if (config.REDIS_URL) {
    const runnerOptions = { opensBuiltInDatabases: !holder.__dedicatedAutomationWorker };
    return new BullmqAutomationQueue({
      redisUrl: config.REDIS_URL,
      keyPrefix: config.KV_KEY_PREFIX ?? DEFAULT_KEY_PREFIX,
      process: (job, attempt, signal) => runAutomationJob(job, attempt, signal, runnerOptions),
      lockDurationMs: config.AUTOMATION_LOCK_SECONDS * 1_000,
      stalledIntervalMs: (config.AUTOMATION_LOCK_SECONDS * 1_000) / 2,
    });
  }
  return new InProcessAutomationQueue({ process: runAutomationJob, track: waitUntil, trackRetryWaits: config.serverless });
}

/**
 * This process's automation queue. Its worker starts with it unless AUTOMATION_WORKER=off (an app
 * instance that leaves the queue to `npm run worker` processes).
 */
export function getAutomationQueue(): AutomationQueue {
  if (!holder.__automationQueue) {
    const works = getConfig().AUTOMATION_WORKER !== "off";
    // A worker without a runner would fail every job it takes: refuse before taking any.
    if (works && !automationJobRunner()) throw new Error(NO_RUNNER);
    const queue = createAutomationQueue();
    holder.__automationQueue = queue;
    if (works) queue.startWorker();
  }
  return holder.__automationQueue;
}

/** Stops the worker (runs in progress finish, at most `timeoutMs`) and closes the queue's connections. */
export async function closeAutomationQueue(timeoutMs?: number): Promise<void> {
  const queue = holder.__automationQueue;
  holder.__automationQueue = undefined;
  await queue?.close(timeoutMs);
}
