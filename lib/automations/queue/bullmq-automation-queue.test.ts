import { randomUUID } from "node:crypto";
import { Socket } from "node:net";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { unpackBatch, type AutomationBatch } from "./automation-batch";
import { automationJobId, automationOfJobId, type AutomationJob } from "./automation-job";
import { startPrivateRedis } from "@/test/support/fault-processes";
import { BullmqAutomationQueue, batchJobId, batchJobProject, runsInJob } from "./bullmq-automation-queue";
import { ProjectRunSlots } from "./project-run-slots";

/**
 * Queueing runs on BullMQ against real Redis (runs when REDIS_URL is set), and working batches with a
 * recording runner; the worker with the real runner (flows, logs, kill -9) is in the route suites.
 */
const redisUrl = getConfig().REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

function job(id: string): AutomationJob {
  return {
    id,
    projectId: "prj_adds",
    // As automationJobId builds them: a record event's run id ends with its automation's id.
    automationId: automationOfJobId(id),
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

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(opened.splice(0).map((queue) => queue.close(2_000)));
    await inspector?.close();
    inspector = null;
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

  /** The jobs the queue holds, each as its id and the ids of the runs it carries. */
  async function storedJobs(): Promise<Array<{ id: string; runs: string[] }>> {
    const jobs = await bullQueue().getJobs(["waiting", "delayed", "failed", "completed", "active"]);
    return jobs
      .map((stored) => ({
        id: stored.id!,
        runs: "runs" in stored.data ? unpackBatch(stored.data as AutomationBatch).map((run) => run.id) : [(stored.data as AutomationJob).id],
      }))
      .sort((a, b) => a.runs[0]!.localeCompare(b.runs[0]!));
  }

  let inspector: Queue | null = null;
  function bullQueue(): Queue {
    inspector ??= new Queue("automations", { connection: redis, prefix: `${keyPrefix}bull` });
    return inspector;
  }

  it("queues the record events of concurrent writes, those made while one add is in flight, as one batch job in one socket write", async () => {
    const queue = open();
    await queue.add([job("record-evtwarm-aut")]);
    const addOne = vi.spyOn(Queue.prototype, "add");
    const ids = Array.from({ length: 30 }, (_, index) => `record-evt${String(index).padStart(2, "0")}-aut`);

    const first = queue.add([job(ids[0]!)]);
    // The first add is on its way to Redis; the next 29 come while it is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    expect(addOne.mock.calls.map(([, data]) => (data as AutomationJob).id)).toEqual([ids[0]]);
    const socketWrites = countSocketWrites();
    await Promise.all([first, ...ids.slice(1).map((id) => queue.add([job(id)]))]);
    expect(socketWrites).toHaveBeenCalledTimes(1);

    const stored = await storedJobs();
    expect(stored.map((entry) => entry.runs)).toEqual([[ids[0]], ids.slice(1), ["record-evtwarm-aut"]]);
    expect(stored[0]!.id).toBe(ids[0]);
    expect(runsInJob(stored[1]!.id)).toBe(29);
    expect(addOne).toHaveBeenCalledTimes(2);
    expect((await queue.counts()).waiting).toBe(3);
  });

  it("sends the adds of one turn of the event loop together, one batch job per project", async () => {
    const queue = open();
    await queue.add([job("record-evtwarm-aut")]);
    const ids = ["record-evt1-aut", "record-evt2-aut", "record-evt3-aut"];
    const socketWrites = countSocketWrites();

    // Three writes answered by the same turn, each in a task of its own, and one of another project.
    const adds: Array<Promise<void>> = [];
    for (const id of ids) {
      adds.push(queue.add([job(id)]));
      await Promise.resolve();
    }
    adds.push(queue.add([{ ...job("record-evt4-aut"), projectId: "prj_other" }]));
    await Promise.all(adds);
    expect(socketWrites).toHaveBeenCalledTimes(1);

    expect((await storedJobs()).map((entry) => entry.runs)).toEqual([ids, ["record-evt4-aut"], ["record-evtwarm-aut"]]);
  });

  it("runs an event queued twice once: within a gathering, and as jobs of their own known by id", async () => {
    const queue = open();
    const id = "record-evtdup-aut";
    await queue.add([job("record-evtwarm-aut")]);
    const first = queue.add([job("record-evtfirst-aut")]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, queue.add([job(id)]), queue.add([job(id)]), queue.add([job("record-evtother-aut")])]);
    // The outbox drain queues an event again as a job of its own; its id keeps a second one out.
    await queue.add([{ ...job("record-evtagain-aut"), redelivered: true }]);
    await queue.add([{ ...job("record-evtagain-aut"), redelivered: true }]);

    expect((await storedJobs()).map((entry) => entry.runs)).toEqual([["record-evtagain-aut"], [id, "record-evtother-aut"], ["record-evtfirst-aut"], ["record-evtwarm-aut"]]);
  });

  it("works a batch's runs in the project's slots; a failed run goes on to a job of its own under its id, its attempts counted on", async () => {
    const calls: Array<{ id: string; number: number; maxAttempts: number }> = [];
    const failures = new Map([
      ["record-evtretry-aut", 1],
      ["record-evtfails-aut", 5],
    ]);
    let running = 0;
    let mostAtOnce = 0;
    const queue = new BullmqAutomationQueue({
      redisUrl: redisUrl!,
      keyPrefix,
      projectConcurrency: 2,
      process: async (run, attempt) => {
        calls.push({ id: run.id, number: attempt.number, maxAttempts: attempt.maxAttempts });
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        const left = failures.get(run.id) ?? 0;
        if (left > 0) {
          failures.set(run.id, left - 1);
          return { status: "failed", executionId: `exe_${run.id}_${attempt.number}`, error: "upstream said no" };
        }
        return { status: "completed", executionId: `exe_${run.id}_${attempt.number}` };
      },
    });
    opened.push(queue);
    await queue.add([job("record-evtwarm-aut")]);
    const ids = ["record-evtok1-aut", "record-evtretry-aut", "record-evtok2-aut", "record-evtfails-aut", "record-evtok3-aut"];
    const first = queue.add([job("record-evtfirst-aut")]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, ...ids.map((id) => queue.add([id === "record-evtretry-aut" ? { ...job(id), retry: { attempts: 2, backoffSeconds: 1 } } : job(id)]))]);
    expect((await storedJobs()).filter((entry) => entry.runs.length > 1).map((entry) => entry.runs)).toEqual([ids]);

    queue.startWorker();
    await vi.waitFor(
      async () => {
        const counts = await queue.counts();
        expect(counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 1 });
        expect(calls.filter((call) => call.id === "record-evtretry-aut")).toHaveLength(2);
      },
      { timeout: 10_000, interval: 100 },
    );

    const byRun = (id: string) => calls.filter((call) => call.id === id);
    for (const id of ["record-evtwarm-aut", "record-evtfirst-aut", "record-evtok1-aut", "record-evtok2-aut", "record-evtok3-aut"]) {
      expect(byRun(id)).toEqual([{ id, number: 1, maxAttempts: 1 }]);
    }
    expect(byRun("record-evtretry-aut")).toEqual([
      { id: "record-evtretry-aut", number: 1, maxAttempts: 3 },
      { id: "record-evtretry-aut", number: 2, maxAttempts: 3 },
    ]);
    // No retry left: failed at once, kept with its whole payload for "Run again", never run again here.
    expect(byRun("record-evtfails-aut")).toEqual([{ id: "record-evtfails-aut", number: 1, maxAttempts: 1 }]);
    expect(await queue.failedJob("record-evtfails-aut")).toEqual(
      expect.objectContaining({ id: "record-evtfails-aut", attemptsBefore: 1, trigger: job("record-evtfails-aut").trigger }),
    );
    expect(await queue.failedJob("record-evtretry-aut")).toBeNull();
    expect(mostAtOnce).toBeLessThanOrEqual(2);
  });

  it("puts a batch whose project has no free run slot back in the delayed set with the runs it has not run, and runs each once", async () => {
    // Another worker holds the project's only slot for a while.
    const holder = new ProjectRunSlots({ redis, keyPrefix: `${keyPrefix}bull:automations:`, limit: 1 });
    const held = await holder.tryTake("prj_adds");
    expect(held).not.toBeNull();
    const calls: string[] = [];
    const queue = new BullmqAutomationQueue({
      redisUrl: redisUrl!,
      keyPrefix,
      projectConcurrency: 1,
      process: (run) => {
        calls.push(run.id);
        return Promise.resolve({ status: "completed", executionId: `exe_${run.id}` });
      },
    });
    opened.push(queue);
    await queue.add([job("record-evtwarm-aut")]);
    const ids = ["record-evtslot1-aut", "record-evtslot2-aut", "record-evtslot3-aut"];
    const first = queue.add([job("record-evtfirst-aut")]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([first, ...ids.map((id) => queue.add([job(id)]))]);

    queue.startWorker();
    await vi.waitFor(async () => expect((await queue.counts()).delayed).toBeGreaterThan(0), { timeout: 5_000, interval: 25 });
    expect(calls).toEqual([]);
    holder.give(held!);
    await holder.close();
    await vi.waitFor(async () => expect(await queue.counts()).toMatchObject({ waiting: 0, active: 0, delayed: 0 }), { timeout: 10_000, interval: 50 });
    expect([...calls].sort()).toEqual([...ids, "record-evtfirst-aut", "record-evtwarm-aut"].sort());
  });

  /** A queue whose runs take `runMs` each, one at a time per project, noting when each started and ended. */
  function slowRunsQueue(options: { runMs: number; concurrency?: number }) {
    const started = new Map<string, number>();
    const ended = new Map<string, number>();
    const queue = new BullmqAutomationQueue({
      redisUrl: redisUrl!,
      keyPrefix,
      projectConcurrency: 1,
      concurrency: options.concurrency,
      process: async (run) => {
        started.set(run.id, Date.now());
        await new Promise((resolve) => setTimeout(resolve, options.runMs));
        ended.set(run.id, Date.now());
        return { status: "completed", executionId: `exe_${run.id}` };
      },
    });
    opened.push(queue);
    return { queue, started, ended };
  }

  /** Polls the queue until it is empty, answering the most jobs it ever saw in the delayed set. */
  async function drainWatchingDelayed(queue: BullmqAutomationQueue): Promise<number> {
    let mostDelayed = 0;
    await vi.waitFor(
      async () => {
        const counts = await queue.counts();
        mostDelayed = Math.max(mostDelayed, counts.delayed ?? 0);
        expect(counts).toMatchObject({ waiting: 0, active: 0, delayed: 0 });
      },
      { timeout: 10_000, interval: 20 },
    );
    return mostDelayed;
  }

  it("keeps a job waiting for the slot its own worker's run is about to free while no other job waits, never in the delayed set", async () => {
    const { queue, started, ended } = slowRunsQueue({ runMs: 700 });
    await queue.add([job("record-evtlong1-aut")]);
    await queue.add([job("record-evtlong2-aut")]);
    queue.startWorker();
    expect(await drainWatchingDelayed(queue)).toBe(0);
    // The second run took the slot as the first gave it up, not 250-500 ms later from the delayed set.
    expect(started.get("record-evtlong2-aut")! - ended.get("record-evtlong1-aut")!).toBeLessThan(200);
  });

  it("keeps a job waiting for its slot while only its own project's jobs wait in the queue, never in the delayed set", async () => {
    // One run at a time for the project, two jobs in the worker: the third waits in the queue.
    const { queue, started, ended } = slowRunsQueue({ runMs: 700, concurrency: 2 });
    const ids = ["record-evtown1-aut_adds", "record-evtown2-aut_adds", "record-evtown3-aut_adds"];
    for (const id of ids) await queue.add([job(id)]);
    queue.startWorker();
    expect(await drainWatchingDelayed(queue)).toBe(0);
    expect(started.get(ids[1]!)! - ended.get(ids[0]!)!).toBeLessThan(200);
    expect(started.get(ids[2]!)! - ended.get(ids[1]!)!).toBeLessThan(200);
  });

  it("puts a job that waits for its project's slot back in the delayed set when another project's job waits for the worker", async () => {
    const { queue, started, ended } = slowRunsQueue({ runMs: 1_500, concurrency: 2 });
    await queue.add([job("record-evtbusy1-aut_adds")]);
    await queue.add([job("record-evtbusy2-aut_adds")]);
    await queue.add([{ ...job("record-evtneighbour-aut_neighbour"), projectId: "prj_neighbour", automationId: "aut_neighbour" }]);
    queue.startWorker();
    expect(await drainWatchingDelayed(queue)).toBeGreaterThan(0);
    // The other project's run did not wait for the busy project's runs.
    expect(started.get("record-evtneighbour-aut_neighbour")!).toBeLessThan(ended.get("record-evtbusy1-aut_adds")!);
    expect(started.size).toBe(3);
  });

  it("names a batch's project in its id, beside the number of its runs", () => {
    const id = batchJobId(29, "prj_01m8vvmexpfab75ysmq28xe86x");
    expect(runsInJob(id)).toBe(29);
    expect(batchJobProject(id)).toBe("prj_01m8vvmexpfab75ysmq28xe86x");
    // Ids of the older form, and jobs of their own, name none.
    expect(batchJobProject(`batch-29-${randomUUID()}`)).toBeUndefined();
    expect(batchJobProject("record-evtown1-aut_adds")).toBeUndefined();
  });

  it("reads the automation back from a job id of its own", () => {
    expect(automationOfJobId(automationJobId("record", "evt_01m8vvnew07gf63xmap1ak8f4p", "aut_01m8vvnew07gf63xmap1ak8f4q"))).toBe("aut_01m8vvnew07gf63xmap1ak8f4q");
    expect(automationOfJobId(automationJobId("schedule", "1796233115634", "aut_x"))).toBe("aut_x");
  });

  it("tells a caller whose add timed out what became of its jobs once Redis answers again", async () => {
    const paused = await startPrivateRedis();
    try {
      const queue = open({ redisUrl: paused.url, addTimeoutMs: 500 });
      await queue.add([job("record-evtwarm-aut")]);
      paused.pause();
      let outcome: Promise<boolean> | null = null;
      const adding = queue.add([job("record-evtlate-aut")], {
        onTimeout: (late) => {
          outcome = late;
        },
      });
      await expect(adding).rejects.toMatchObject({ code: "unavailable" });
      expect(outcome).not.toBeNull();
      paused.resume();
      expect(await outcome!).toBe(true);
      expect(await queue.counts()).toMatchObject({ waiting: 2 });
    } finally {
      await Promise.all(opened.splice(0).map((queue) => queue.close(2_000)));
      await paused.dispose();
    }
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
