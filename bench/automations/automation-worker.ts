/**
 * The automation benchmark's worker process: `npm run worker` (scripts/worker.ts) as it is, unless
 * BENCH_PROJECT_SLOTS is set. Then, to measure what the per-project slot limit
 * (PROJECT_CONCURRENCY in lib/automations/queue/automation-queue.ts) costs a single-project load,
 * this process's queue is built first with that many slots per project, the way
 * get-automation-queue.ts builds it otherwise, and scripts/worker.ts finds it in place. Every
 * process working the queue must use the same limit (the app runs with AUTOMATION_WORKER=off here).
 */
import { getConfig } from "@/lib/config";
import { DEFAULT_KEY_PREFIX } from "@/lib/kv/kv";
import { BullmqAutomationQueue } from "@/lib/automations/queue/bullmq-automation-queue";
import type { AutomationQueue } from "@/lib/automations/queue/automation-queue";

const slots = process.env.BENCH_PROJECT_SLOTS ? Number(process.env.BENCH_PROJECT_SLOTS) : null;
if (slots !== null) {
  if (!Number.isInteger(slots) || slots < 1) throw new Error(`BENCH_PROJECT_SLOTS must be a positive integer, got ${process.env.BENCH_PROJECT_SLOTS}`);
  if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: "production" });
  const config = getConfig();
  if (!config.REDIS_URL) throw new Error("the benchmark worker needs REDIS_URL");
  // The globals get-automation-queue.ts keeps its queue and the worker mark in.
  const holder = globalThis as typeof globalThis & { __automationQueue?: AutomationQueue; __dedicatedAutomationWorker?: boolean };
  holder.__dedicatedAutomationWorker = true;
  // Imported once, not per job: under tsx each import() goes through its loader hooks, a cost the
  // app's own worker (get-automation-queue.ts, a runner set at start-up) does not pay.
  const runner = import("@/lib/automations/run-automation-job");
  const queue = new BullmqAutomationQueue({
    redisUrl: config.REDIS_URL,
    keyPrefix: config.KV_KEY_PREFIX ?? DEFAULT_KEY_PREFIX,
    process: async (job, attempt, signal) => (await runner).runAutomationJob(job, attempt, signal, { opensBuiltInDatabases: false }),
    lockDurationMs: config.AUTOMATION_LOCK_SECONDS * 1_000,
    stalledIntervalMs: (config.AUTOMATION_LOCK_SECONDS * 1_000) / 2,
    projectConcurrency: slots,
  });
  holder.__automationQueue = queue;
  queue.startWorker();
  console.log(`benchmark worker: ${slots} run slots per project`);
}

void import("../../scripts/worker");
