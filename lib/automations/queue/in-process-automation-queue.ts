import { log } from "@/lib/log";
import type { AttemptOutcome, AutomationAttempt } from "./automation-attempt";
import type { AutomationJob } from "./automation-job";
import { PROJECT_CONCURRENCY, WORKER_CONCURRENCY, type AutomationQueue } from "./automation-queue";

export interface InProcessAutomationQueueOptions {
  process: (job: AutomationJob, attempt: AutomationAttempt, signal: AbortSignal) => Promise<AttemptOutcome>;
  /** Keeps a run alive after the answer that queued it (lib/http/after-response.ts). */
  track: (task: Promise<unknown>) => void;
  /**
   * Also track each retry's backoff wait (serverless hosts): the function that ran the failed attempt
   * then stays alive until the retry has started, instead of being frozen with the retry's timer in it.
   */
  trackRetryWaits?: boolean;
  concurrency?: number;
  projectConcurrency?: number;
}

interface Waiting {
  job: AutomationJob;
  attempt: number;
}

// Ids seen within this window are not queued again (the same event delivered twice runs once).
const REMEMBER_IDS_MS = 3_600_000;
const MAX_REMEMBERED_IDS = 100_000;

/** How many jobs whose runs all failed stay known for "Run again". */
const KEEP_FAILED_JOBS = 1_000;

/**
 * Embedded mode (no Redis, one process): runs start in this process right after the answer that
 * queued them, at most `concurrency` at once and `projectConcurrency` per project, projects taken in
 * turn so that one project's flood does not starve the others; retries wait their backoff on a
 * timer. Nothing is durable: a restart drops queued runs and pending retries (the README and
 * /api/health say so; form submissions and records are already stored).
 */
export class InProcessAutomationQueue implements AutomationQueue {
  readonly kind = "in-process";
  readonly durable = false;
  private readonly seen = new Map<string, number>();
  /** Projects with waiting jobs, in the order they are served. */
  private readonly projects = new Map<string, { waiting: Waiting[]; active: number }>();
  private active = 0;
  private delayed = 0;
  private failed = 0;
  /** The last jobs whose runs all failed, by id, oldest first ("Run again" reads their payload). */
  private readonly failedJobs = new Map<string, AutomationJob>();
  private closed = false;
  /** Pending retry timers, each with what ends its tracked wait (a no-op unless trackRetryWaits). */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private readonly running = new Set<Promise<void>>();
  private readonly controller = new AbortController();

  constructor(private readonly options: InProcessAutomationQueueOptions) {}

  add(jobs: readonly AutomationJob[]): Promise<void> {
    const now = Date.now();
    for (const job of jobs) {
      if ((this.seen.get(job.id) ?? 0) > now - REMEMBER_IDS_MS) continue;
      this.remember(job.id, now);
      this.enqueue({ job, attempt: 1 });
    }
    // After the answer: the caller's response goes out before any run starts. Tracked, so that a
    // shutdown or a test waiting for after-response work also waits for the runs it starts.
    this.options.track(
      new Promise<void>((resolve) =>
        setImmediate(() => {
          this.pump();
          resolve();
        }),
      ),
    );
    return Promise.resolve();
  }

  startWorker(): void {
    // Runs start as they are queued; there is no separate worker in one process.
  }

  private remember(id: string, now: number): void {
    this.seen.delete(id);
    this.seen.set(id, now);
    while (this.seen.size > MAX_REMEMBERED_IDS) this.seen.delete(this.seen.keys().next().value!);
  }

  private enqueue(item: Waiting): void {
    if (this.closed) return;
    const project = this.projects.get(item.job.projectId);
    if (project) project.waiting.push(item);
    else this.projects.set(item.job.projectId, { waiting: [item], active: 0 });
  }

  private pump(): void {
    const limit = this.options.concurrency ?? WORKER_CONCURRENCY;
    const perProject = this.options.projectConcurrency ?? PROJECT_CONCURRENCY;
    let started = true;
    while (started && this.active < limit && !this.closed) {
      started = false;
      for (const [projectId, project] of this.projects) {
        if (this.active >= limit) break;
        if (project.active >= perProject || project.waiting.length === 0) continue;
        const item = project.waiting.shift()!;
        // Served projects go to the back of the turn order.
        this.projects.delete(projectId);
        this.projects.set(projectId, project);
        this.start(item, project);
        started = true;
      }
    }
    for (const [projectId, project] of this.projects) {
      if (project.active === 0 && project.waiting.length === 0) this.projects.delete(projectId);
    }
  }

  private start(item: Waiting, project: { active: number }): void {
    this.active++;
    project.active++;
    const maxAttempts = 1 + item.job.retry.attempts;
    // The project's slot goes on once the steps are done, as a BullMQ run's does: the log is then
    // written (after a short gathering wait, log-write-queue.ts) while the project's next run goes.
    let holdsSlot = true;
    const freeSlot = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      project.active--;
    };
    const stepsDone = () => {
      freeSlot();
      this.pump();
    };
    const running = this.options
      .process(item.job, { number: item.attempt, maxAttempts, afterInterruption: false, stepsDone }, this.controller.signal)
      .then((outcome) => {
        if (outcome.status !== "failed") return;
        if (item.attempt < maxAttempts) this.retryLater({ job: item.job, attempt: item.attempt + 1 });
        else this.keepFailed(item.job);
      })
      .catch((error: unknown) => {
        this.failed++;
        log.error("automation run could not be started", { jobId: item.job.id, error });
      })
      .finally(() => {
        this.active--;
        freeSlot();
        this.running.delete(running);
        this.pump();
      });
    this.running.add(running);
    this.options.track(running);
  }

  private keepFailed(job: AutomationJob): void {
    this.failed++;
    this.failedJobs.delete(job.id);
    this.failedJobs.set(job.id, job);
    if (this.failedJobs.size > KEEP_FAILED_JOBS) this.failedJobs.delete(this.failedJobs.keys().next().value!);
  }

  failedJob(jobId: string): Promise<AutomationJob | null> {
    return Promise.resolve(this.failedJobs.get(jobId) ?? null);
  }

  private retryLater(item: Waiting): void {
    this.delayed++;
    let endWait: () => void = () => undefined;
    if (this.options.trackRetryWaits) this.options.track(new Promise<void>((resolve) => (endWait = resolve)));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.delayed--;
      this.enqueue(item);
      this.pump();
      endWait();
    }, item.job.retry.backoffSeconds * 1_000);
    timer.unref();
    this.timers.set(timer, endWait);
  }

  counts(): Promise<{ waiting: number; active: number; delayed: number; failed: number }> {
    let waiting = 0;
    for (const project of this.projects.values()) waiting += project.waiting.length;
    return Promise.resolve({ waiting, active: this.active, delayed: this.delayed, failed: this.failed });
  }

  async close(timeoutMs = 15_000): Promise<void> {
    this.closed = true;
    for (const [timer, endWait] of this.timers) {
      clearTimeout(timer);
      endWait();
    }
    this.timers.clear();
    this.projects.clear();
    // Runs still going when the time is up are cut off (their flows stop at the next step) and left.
    const runs = Promise.allSettled([...this.running]);
    if (!(await settledWithin(runs, timeoutMs))) {
      this.controller.abort(new Error("the process is shutting down"));
      await settledWithin(runs, ABORT_GRACE_MS);
    }
  }
}

const ABORT_GRACE_MS = 1_000;

async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
