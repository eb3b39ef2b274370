import { getConfig } from "@/lib/config";
import { DEFAULT_KEY_PREFIX } from "@/lib/kv/kv";
import { waitUntil } from "@/lib/http/after-response";
import type { AttemptOutcome, AutomationAttempt, AutomationRunnerOptions } from "../run-automation-job";
import type { AutomationJob } from "./automation-job";
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

/*
 * The runner is loaded when the first job runs: it reaches the whole flow engine and the records
 * service, whose writes queue jobs through this module; a static import would make that a cycle.
 */
let runner: Promise<typeof import("../run-automation-job")> | null = null;
function runAutomationJob(job: AutomationJob, attempt: AutomationAttempt, signal: AbortSignal, options?: AutomationRunnerOptions): Promise<AttemptOutcome> {
  runner ??= import("../run-automation-job");
  return runner.then((module) => module.runAutomationJob(job, attempt, signal, options));
}

/** A queue from the configuration: BullMQ with REDIS_URL, else in this process (embedded mode). */
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
  return new InProcessAutomationQueue({ process: runAutomationJob, track: waitUntil });
}

/**
 * This process's automation queue. Its worker starts with it unless AUTOMATION_WORKER=off (an app
 * instance that leaves the queue to `npm run worker` processes).
 */
export function getAutomationQueue(): AutomationQueue {
  if (!holder.__automationQueue) {
    const queue = createAutomationQueue();
    holder.__automationQueue = queue;
    if (getConfig().AUTOMATION_WORKER !== "off") queue.startWorker();
  }
  return holder.__automationQueue;
}

/** Stops the worker (runs in progress finish, at most `timeoutMs`) and closes the queue's connections. */
export async function closeAutomationQueue(timeoutMs?: number): Promise<void> {
  const queue = holder.__automationQueue;
  holder.__automationQueue = undefined;
  await queue?.close(timeoutMs);
}
