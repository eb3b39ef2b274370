import { randomUUID } from "node:crypto";
import { Socket } from "node:net";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import type { AutomationJob } from "./automation-job";
import { BullmqAutomationQueue } from "./bullmq-automation-queue";

/** Queueing runs on BullMQ against real Redis (runs when REDIS_URL is set); the worker side is in the route suites. */
const redisUrl = getConfig().REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

function job(id: string): AutomationJob {
  return {
    id,
    projectId: "prj_adds",
    automationId: "aut_adds",
    triggerType: "record",
    trigger: { event: "create", schema: "tickets", record: { id, title: `ticket ${id}` }, previous: null },
    executionId: `exe_${id}`,
    queuedAt: new Date().toISOString(),
    retry: { attempts: 0, backoffSeconds: 30 },
  };
}

suite("BullMQ automation queue: adding runs", () => {
  let redis: Redis;
  const keyPrefix = `test-adds-${randomUUID()}:`;
  const opened: BullmqAutomationQueue[] = [];

  function open(options: { redisUrl?: string; addTimeoutMs?: number } = {}): BullmqAutomationQueue {
    const queue = new BullmqAutomationQueue({
      redisUrl: options.redisUrl ?? redisUrl!,
      keyPrefix,
      addTimeoutMs: options.addTimeoutMs,
      process: () => Promise.reject(new Error("this suite starts no worker")),
    });
    opened.push(queue);
    return queue;
  }

  const storedJobIds = async () => (await redis.keys(`${keyPrefix}bull:automations:record-*`)).map((key) => key.split(":").at(-1)).sort();

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(opened.splice(0).map((queue) => queue.close(2_000)));
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  afterAll(() => {
    redis.disconnect();
  });

  /** Counts the system calls that write to any socket of this process (a corked socket's chunks leave in one). */
  function countSocketWrites() {
    return vi.spyOn(Socket.prototype as unknown as { _writeGeneric: (...args: unknown[]) => void }, "_writeGeneric");
  }

  it("stores every job of concurrent adds, those made while one is in flight as one batch in one socket write", async () => {
    const queue = open();
    await queue.add([job("record-evtwarm-aut")]);
    const addOne = vi.spyOn(Queue.prototype, "add");
    const ids = Array.from({ length: 30 }, (_, index) => `record-evt${String(index).padStart(2, "0")}-aut`);

    const first = queue.add([job(ids[0]!)]);
    // The first add is on its way to Redis; the next 29 come while it is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    expect(addOne.mock.calls.map(([, data]) => data.id)).toEqual([ids[0]]);
    const socketWrites = countSocketWrites();
    await Promise.all([first, ...ids.slice(1).map((id) => queue.add([job(id)]))]);
    expect(socketWrites).toHaveBeenCalledTimes(1);

    expect(await storedJobIds()).toEqual([...ids, "record-evtwarm-aut"]);
    expect(addOne.mock.calls.map(([, data]) => data.id)).toEqual(ids);
    expect((await queue.counts()).waiting).toBe(31);
  });

  it("sends the adds of one turn of the event loop together", async () => {
    const queue = open();
    await queue.add([job("record-evtwarm-aut")]);
    const ids = ["record-evt1-aut", "record-evt2-aut", "record-evt3-aut"];
    const socketWrites = countSocketWrites();

    // Three writes answered by the same turn, each in a task of its own.
    const adds: Array<Promise<void>> = [];
    for (const id of ids) {
      adds.push(queue.add([job(id)]));
      await Promise.resolve();
    }
    await Promise.all(adds);
    expect(socketWrites).toHaveBeenCalledTimes(1);

    expect(await storedJobIds()).toEqual([...ids, "record-evtwarm-aut"]);
  });

  it("runs an event queued twice once, within a batch and across batches", async () => {
    const queue = open();
    const id = "record-evtdup-aut";
    await Promise.all([queue.add([job("record-evtfirst-aut")]), queue.add([job(id)]), queue.add([job(id)])]);
    await queue.add([job(id)]);

    expect(await storedJobIds()).toEqual(["record-evtdup-aut", "record-evtfirst-aut"]);
    expect((await queue.counts()).waiting).toBe(2);
  });

  it("answers unavailable to each caller when Redis cannot be reached", async () => {
    // Nothing listens on port 1: every connection attempt is refused.
    const queue = open({ redisUrl: "redis://127.0.0.1:1", addTimeoutMs: 1_000 });
    const answers = await Promise.allSettled([queue.add([job("record-a-aut")]), queue.add([job("record-b-aut")]), queue.add([job("record-c-aut")])]);

    for (const answer of answers) {
      expect(answer.status).toBe("rejected");
      const error = (answer as PromiseRejectedResult).reason as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe("unavailable");
    }
  });
});
