import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import type { AutomationJob } from "@/lib/automations/queue/automation-job";
import { BullmqAutomationQueue } from "@/lib/automations/queue/bullmq-automation-queue";
import { REDIS_URL } from "../infrastructure";

/**
 * The CPU one queued run costs the process that queues it and Redis, apart from everything else a
 * records API write does: `npx tsx bench/automations/measure-queue-adds.ts [adds per turn] [jobs]`
 * queues jobs shaped like the benchmark's record events through the app's BullMQ queue, a few per
 * turn of the event loop (each from a task of its own, as concurrent writes make them) with a
 * millisecond between turns, and prints user + system CPU per job of this process and of
 * redis-server (read from /proc: run it on the machine that runs Redis). Unlike the end-to-end
 * benchmark it barely depends on what else the machine runs. Its keys are deleted afterwards.
 */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function redisPid(redis: Redis): Promise<number> {
  const info = await redis.info("server");
  return Number(/process_id:(\d+)/.exec(info)?.[1]);
}

function recordEventJob(index: number): AutomationJob {
  const now = new Date().toISOString();
  const id = `record-evt${index}-autbench`;
  return {
    id,
    projectId: "prj_bench",
    automationId: "aut_bench",
    triggerType: "record",
    trigger: { event: "create", schema: "events", record: { id: `rec_${index}`, createdAt: now, updatedAt: now, title: `event ${index}`, body: "x".repeat(60) }, previous: null },
    executionId: `exe_${index}`,
    queuedAt: now,
    retry: { attempts: 0, backoffSeconds: 30 },
  };
}

async function main(): Promise<void> {
  const perTurn = Number(process.argv[2] ?? 1);
  const jobs = Number(process.argv[3] ?? 6_000);
  const keyPrefix = `fpbench-adds-${Date.now()}:`;
  const redis = new Redis(REDIS_URL);
  const queue = new BullmqAutomationQueue({ redisUrl: REDIS_URL, keyPrefix, process: () => Promise.reject(new Error("this measurement starts no worker")) });
  try {
    const pid = await redisPid(redis);
    await queue.add([recordEventJob(-1)]);
    const redisBefore = processCpuMs(pid);
    const ownBefore = process.cpuUsage();
    const started = Date.now();
    const adds: Array<Promise<void>> = [];
    for (let index = 0; index < jobs;) {
      for (let inTurn = 0; inTurn < perTurn && index < jobs; inTurn++) {
        adds.push(queue.add([recordEventJob(index++)]));
        await Promise.resolve();
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(adds);
    const own = process.cpuUsage(ownBefore);
    const redisMs = processCpuMs(pid) - redisBefore;
    console.log(
      `${jobs} adds, ${perTurn} per turn, ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `queueing process ${((own.user + own.system) / jobs).toFixed(1)} µs CPU per job, redis-server ${((redisMs * 1000) / jobs).toFixed(1)} µs`,
    );
  } finally {
    await queue.close(1_000);
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
