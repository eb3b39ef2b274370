import { afterEach, describe, expect, it } from "vitest";
import type { AttemptOutcome, AutomationAttempt } from "./automation-attempt";
import type { AutomationJob } from "./automation-job";
import { InProcessAutomationQueue } from "./in-process-automation-queue";

/** The queue's own logic (turns, limits, ids, retries) with a runner that records what it was given. */
function job(projectId: string, index: number, retry = { attempts: 0, backoffSeconds: 1 }): AutomationJob {
  return {
    id: `manual-${projectId}-${index}`,
    projectId,
    automationId: "aut_1",
    triggerType: "manual",
    trigger: { index },
    executionId: `exe_${index}`,
    queuedAt: new Date().toISOString(),
    retry,
  };
}

interface Harness {
  queue: InProcessAutomationQueue;
  started: Array<{ id: string; attempt: AutomationAttempt }>;
  /** Ends the oldest running run of a project with the given outcome. */
  finish(projectId: string, outcome?: AttemptOutcome["status"]): void;
  running(projectId?: string): number;
}

let queues: InProcessAutomationQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.map((queue) => queue.close(100)));
  queues = [];
});

function harness(options: { concurrency?: number; projectConcurrency?: number; trackRetryWaits?: boolean; track?: (task: Promise<unknown>) => void } = {}): Harness {
  const started: Harness["started"] = [];
  const pending: Array<{ projectId: string; resolve: (outcome: AttemptOutcome) => void }> = [];
  const queue = new InProcessAutomationQueue({
    track: () => undefined,
    ...options,
    process: (queued, attempt) =>
      new Promise<AttemptOutcome>((resolve) => {
        started.push({ id: queued.id, attempt });
        pending.push({ projectId: queued.projectId, resolve });
      }),
  });
  queues.push(queue);
  return {
    queue,
    started,
    finish(projectId, status = "completed") {
      const index = pending.findIndex((entry) => entry.projectId === projectId);
      const [entry] = pending.splice(index, 1);
      entry!.resolve(
        status === "failed"
          ? { status, executionId: "exe", error: "boom" }
          : status === "skipped"
            ? { status, reason: "gone" }
            : status === "deferred"
              ? { status }
              : { status, executionId: "exe" },
      );
    },
    running: (projectId) => pending.filter((entry) => projectId === undefined || entry.projectId === projectId).length,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("in-process automation queue", () => {
  it("runs at most five runs of one project at once and starts the next when one ends", async () => {
    const h = harness();
    await h.queue.add(Array.from({ length: 8 }, (_, index) => job("prj_a", index)));
    await settle();
    expect(h.running("prj_a")).toBe(5);
    h.finish("prj_a");
    await settle();
    expect(h.running("prj_a")).toBe(5);
    expect(h.started).toHaveLength(6);
  });

  it("gives the project's slot to its next run once a run's steps are done, before its log is written", async () => {
    const h = harness();
    await h.queue.add(Array.from({ length: 7 }, (_, index) => job("prj_a", index)));
    await settle();
    expect(h.started).toHaveLength(5);
    h.started[0]!.attempt.stepsDone!();
    // Said twice (the runner's own call, then the run's end): the slot goes on once.
    h.started[0]!.attempt.stepsDone!();
    await settle();
    expect(h.started).toHaveLength(6);
    h.finish("prj_a");
    await settle();
    expect(h.started).toHaveLength(6);
    h.finish("prj_a");
    await settle();
    expect(h.started).toHaveLength(7);
  });

  it("takes projects in turn, so one project's backlog does not hold another's run back", async () => {
    const h = harness({ concurrency: 2, projectConcurrency: 2 });
    await h.queue.add(Array.from({ length: 50 }, (_, index) => job("prj_flood", index)));
    await h.queue.add([job("prj_quiet", 0)]);
    await settle();
    h.finish("prj_flood");
    await settle();
    expect(h.started.map((entry) => entry.id)).toContain("manual-prj_quiet-0");
    expect(h.started).toHaveLength(3);
  });

  it("runs a job whose id it has seen once", async () => {
    const h = harness();
    await h.queue.add([job("prj_a", 1)]);
    await h.queue.add([job("prj_a", 1), job("prj_a", 1)]);
    await settle();
    expect(h.started).toHaveLength(1);
  });

  it("retries a failed run after its backoff, counting attempts, and stops after the last", async () => {
    const h = harness();
    await h.queue.add([job("prj_a", 1, { attempts: 1, backoffSeconds: 1 })]);
    await settle();
    h.finish("prj_a", "failed");
    await settle();
    expect(await h.queue.counts()).toMatchObject({ delayed: 1, active: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(h.started.map(({ attempt }) => ({ number: attempt.number, maxAttempts: attempt.maxAttempts, afterInterruption: attempt.afterInterruption }))).toEqual([
      { number: 1, maxAttempts: 2, afterInterruption: false },
      { number: 2, maxAttempts: 2, afterInterruption: false },
    ]);
    h.finish("prj_a", "failed");
    await settle();
    expect(await h.queue.counts()).toMatchObject({ delayed: 0, active: 0, failed: 1 });
  });

  it("with trackRetryWaits (serverless), keeps tracked work unsettled through a retry's backoff, until the retry has started", async () => {
    for (const trackRetryWaits of [false, true]) {
      const unsettled = new Set<Promise<unknown>>();
      const track = (task: Promise<unknown>) => {
        unsettled.add(task);
        void task.finally(() => unsettled.delete(task));
      };
      const h = harness({ trackRetryWaits, track });
      await h.queue.add([job("prj_a", 1, { attempts: 1, backoffSeconds: 1 })]);
      await settle();
      h.finish("prj_a", "failed");
      await settle();
      expect(await h.queue.counts()).toMatchObject({ delayed: 1, active: 0 });
      // What the platform keeps the function alive for (after()): the backoff only when asked to.
      expect(unsettled.size, `trackRetryWaits: ${trackRetryWaits}`).toBe(trackRetryWaits ? 1 : 0);
      if (!trackRetryWaits) continue;
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(h.started.map((entry) => entry.attempt.number)).toEqual([1, 2]);
      // The wait has ended; the retry's own run is what is tracked now.
      expect(unsettled.size).toBe(1);
      h.finish("prj_a");
      await settle();
      expect(unsettled.size).toBe(0);
    }
  });

  it("ends a tracked retry wait when it closes, so a shutdown does not wait out the backoff", async () => {
    const unsettled = new Set<Promise<unknown>>();
    const h = harness({
      trackRetryWaits: true,
      track: (task) => {
        unsettled.add(task);
        void task.finally(() => unsettled.delete(task));
      },
    });
    await h.queue.add([job("prj_a", 1, { attempts: 1, backoffSeconds: 60 })]);
    await settle();
    h.finish("prj_a", "failed");
    await settle();
    expect(unsettled.size).toBe(1);
    await h.queue.close(100);
    await settle();
    expect(unsettled.size).toBe(0);
    expect(h.started).toHaveLength(1);
  });

  it("starts nothing after close", async () => {
    const h = harness({ projectConcurrency: 1 });
    await h.queue.add([job("prj_a", 1), job("prj_a", 2)]);
    await settle();
    const closing = h.queue.close(1_000);
    h.finish("prj_a");
    await closing;
    await settle();
    expect(h.started).toHaveLength(1);
  });
});
