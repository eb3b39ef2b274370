import { randomUUID } from "node:crypto";
import { DelayedError, Queue, Worker, type Job, type JobsOptions } from "bullmq";
import { Redis, ReplyError } from "ioredis";
import { LightAbortController } from "@/lib/abort/light-abort-controller";
import { createSharedTimeout, type SharedTimeout } from "@/lib/abort/shared-timeout";
import { createWriteBatcher, type WriteBatcher } from "@/lib/batching/write-batcher";
import { AppError } from "@/lib/errors";
import { ID_PREFIXES } from "@/lib/ids";
import { log } from "@/lib/log";
import type { AttemptOutcome, AutomationAttempt } from "./automation-attempt";
import { isRecordEventRun, packBatch, unpackBatch, type AutomationBatch } from "./automation-batch";
import { automationOfJobId, type AutomationJob } from "./automation-job";
import { PROJECT_CONCURRENCY, WORKER_CONCURRENCY, type AddOptions, type AutomationQueue } from "./automation-queue";
import { ProjectRunSlots, type RunSlot } from "./project-run-slots";

export const AUTOMATION_QUEUE_NAME = "automations";

export interface BullmqAutomationQueueOptions {
  redisUrl: string;
  /** Namespaces the queue's keys (KV_KEY_PREFIX), so several deployments can share one Redis. */
  keyPrefix: string;
  process: (job: AutomationJob, attempt: AutomationAttempt, signal: AbortSignal) => Promise<AttemptOutcome>;
  concurrency?: number;
  projectConcurrency?: number;
  /** A worker that stops renewing its lock this long is presumed dead and its job re-run. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** How long add() waits for Redis before answering unavailable. */
  addTimeoutMs?: number;
}

/** One job as BullMQ's add takes it. */
interface JobToAdd {
  name: string;
  data: SingleJobData | AutomationBatch;
  opts: JobsOptions;
}

/**
 * A run handed on from a batch to a job of its own (its retries), or one that failed in a batch
 * with no retry left: `failedRun` holds its error, and the job is failed at once without running,
 * so that it is listed and kept (for "Run again") as any failed job.
 */
type SingleJobData = AutomationJob & { failedRun?: string };

const BATCH_JOB_NAME = "batch";

const BATCH_ID_PROJECT = new RegExp(`^batch-\\d+-(${ID_PREFIXES.project}_[^-]+)-`);

/**
 * A batch job's id says how many runs it holds, so that a backlog can be counted in runs from ids
 * alone, and whose runs they are, so that a worker can tell whose jobs wait (takeSlot).
 */
export function batchJobId(runs: number, projectId: string): string {
  return `batch-${runs}-${projectId}-${randomUUID()}`;
}

/** The project of a batch job, from its id (batchJobId); undefined for any other job or an id of the older form. */
export function batchJobProject(jobId: string): string | undefined {
  return BATCH_ID_PROJECT.exec(jobId)?.[1];
}

/** How many runs a job holds, from its id (batchJobId); 1 for any other job. */
export function runsInJob(jobId: string): number {
  const match = /^batch-(\d+)-/.exec(jobId);
  return match ? Number(match[1]) : 1;
}

/** A run that failed; thrown to BullMQ so that its retry policy (attempts, backoff) applies. */
class AutomationRunFailed extends Error {
  override name = "AutomationRunFailed";
}

// Completed jobs stay known for an hour: an event queued again within it (outbox drain, a second
// instance's schedule tick) is recognised by its id and not run twice.
const KEEP_COMPLETED = { age: 3_600, count: 100_000 };
const KEEP_FAILED = { age: 7 * 24 * 3_600, count: 10_000 };
const SLOT_WAIT_MS = 250;
// How often a waiting job looks again for a slot another worker freed.
const SLOT_RECHECK_MS = 25;
// The longest a job keeps waiting for a slot this worker's own runs will hand over (see takeSlot).
const SLOT_LOCAL_WAIT_MAX_MS = 5_000;
// How many of the jobs next in line a waiting job looks at to tell whose they are.
const WAITING_LOOK_AHEAD = 100;
// Beyond this many automations the map of their projects starts again (a worker of many projects).
const MAX_KNOWN_AUTOMATIONS = 10_000;
// A job another kind of worker must run (a built-in database's project) waits a moment for one.
const DEFERRED_WAIT_MS = 1_000;

// A batch started again after a queue error (its runs look in the log first and do not run twice).
const BATCH_ATTEMPTS = 3;
const BATCH_BACKOFF_MS = 1_000;

const WARNING_INTERVAL_MS = 30_000;
const lastWarnings = new Map<string, number>();

/** Connection errors repeat on every reconnect attempt while Redis is away: one line per kind per 30 s. */
function warnThrottled(message: string, error: Error): void {
  const now = Date.now();
  if (now - (lastWarnings.get(message) ?? 0) < WARNING_INTERVAL_MS) return;
  lastWarnings.set(message, now);
  log.warn(message, { error: error.message });
}

function queueDidNotAnswer(): AppError {
  return new AppError("unavailable", "the automation queue did not answer");
}

/**
 * The automation queue on Redis, with BullMQ: jobs survive restarts, every instance (and
 * `npm run worker`) works the same queue, a job's id is its idempotency key, retries follow the
 * automation's policy, and a worker killed mid-run has its job re-run by another once its lock
 * lapses (BullMQ's stalled-job check). BullMQ has no per-group concurrency in its open-source
 * edition, so a project's share is bounded by a Redis semaphore (project-run-slots.ts): a job whose
 * project is at its limit goes back to the delayed set for a moment and other projects' jobs run.
 *
 * Record events queued together (the writes of one turn of the event loop, or those made while the
 * previous add was in flight) go as one job per project, a batch: BullMQ's add, fetch and finish
 * scripts and the job's bookkeeping are paid per batch rather than per run, which under load is most
 * of what queueing a run costs. A batch's runs keep their own ids (in their logs, for "Run again")
 * and their own retry policy: a run that fails goes on to a job of its own with that id.
 * A batch is not recognised by its runs' ids, so only record events from writes go in batches
 * (a second queueing of one — the outbox drain after a failed removal — looks in the log first);
 * schedule ticks, form submissions and manual runs, whose ids keep them from running twice, stay
 * jobs of their own.
 */
export class BullmqAutomationQueue implements AutomationQueue {
  readonly kind = "bullmq";
  readonly durable = true;
  private readonly producer: Redis;
  private readonly queue: Queue<SingleJobData | AutomationBatch>;
  private worker: Worker<SingleJobData | AutomationBatch> | null = null;
  private workerConnection: Redis | null = null;
  private slotsConnection: Redis | null = null;
  private slots: ProjectRunSlots | null = null;
  private readonly controllers = new Set<LightAbortController>();
  private readonly adds: WriteBatcher<AutomationJob>;
  private readonly addTimeout: SharedTimeout;
  /** For the dashboard's reads (a failed job, the counts): they wait less than an add may. */
  private readonly readTimeout = createSharedTimeout(2_000, queueDidNotAnswer);
  /** The last answer of waitingJobIds(), shared by the jobs that ask within SLOT_WAIT_MS ÷ 2. */
  private waitingCheck: { at: number; ids: Promise<readonly string[] | null> } | null = null;
  /** Automation id → project id, of the runs this worker has worked (othersWaiting). */
  private readonly automationProjects = new Map<string, string>();

  constructor(private readonly options: BullmqAutomationQueueOptions) {
    // No auto-pipelining: ioredis builds its pipeline object with a copy of every script the
    // connection knows, and BullMQ loads dozens, which made that copy the dearest part of an add.
    // Adds made together leave in one socket write through corkUntilTurnEnds instead.
    this.producer = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.producer.on("error", (error) => warnThrottled("automation queue connection error", error));
    this.queue = new Queue<SingleJobData | AutomationBatch>(AUTOMATION_QUEUE_NAME, { connection: this.producer, prefix: this.bullPrefix });
    this.queue.on("error", (error) => warnThrottled("automation queue error", error));
    // Each add is a socket write and a read of its reply, the dearest part of queueing a run on this
    // kind of machine. Adds gather over the event loop's turn — the writes whose records were
    // stored in the same turn — and while one batch is in flight the ones made meanwhile wait for it
    // and leave together: one socket write for many jobs, a round trip of extra delay at most. Each
    // job of a batch is its own add (not addBulk, whose MULTI builds a pipeline object); record events
    // of one project go as one batch job (groupIntoBatches).
    this.adds = createWriteBatcher<AutomationJob>({
      runAlone: async (run) => {
        await this.addSingle(run);
      },
      runBatch: async (jobs) => {
        this.corkUntilTurnEnds();
        const groups = groupIntoBatches(jobs);
        const outcomes = await Promise.allSettled(groups.map(({ job }) => this.queue.add(job.name, job.data, job.opts)));
        // A group refused by a script error (a reply error) is added again job by job, which for a
        // job already known does nothing; the groups added are not added again, as a batch's runs
        // are not known by id. Any other error (the connection) is every caller's answer.
        const refused: AutomationJob[] = [];
        for (const [index, outcome] of outcomes.entries()) {
          if (outcome.status === "fulfilled") continue;
          if (!(outcome.reason instanceof ReplyError)) throw outcome.reason;
          refused.push(...groups[index]!.members);
        }
        await Promise.all(refused.map((run) => this.addSingle(run)));
      },
      failsEveryItem: () => true,
      maxInFlight: 1,
      gather: "event-loop-turn",
    });
    this.addTimeout = createSharedTimeout(options.addTimeoutMs ?? 3_000, queueDidNotAnswer);
  }

  /**
   * Holds the producer's socket writes until the end of this turn of the event loop, so that the
   * commands of the adds started now leave in one system call. Commands written later (or while
   * the connection is not ready) are simply sent as usual.
   */
  private corkUntilTurnEnds(): void {
    if (this.producer.status !== "ready") return;
    const socket = this.producer.stream;
    socket.cork();
    setImmediate(() => socket.uncork());
  }

  /** A run as a job of its own (singleJob). */
  private addSingle(run: AutomationJob): Promise<unknown> {
    const single = singleJob(run);
    return this.queue.add(single.name, single.data, single.opts);
  }

  private get bullPrefix(): string {
    return `${this.options.keyPrefix}bull`;
  }

  add(jobs: readonly AutomationJob[], options?: AddOptions): Promise<void> {
    const added =
      jobs.length === 1 ? this.adds.add(AUTOMATION_QUEUE_NAME, jobs[0]!) : Promise.all(jobs.map((job) => this.adds.add(AUTOMATION_QUEUE_NAME, job))).then(() => undefined);
    const onTimeout = options?.onTimeout;
    // Late is not lost: the adds are still on their way, and what becomes of them decides whether
    // their events need the outbox drain (a batch's runs, queued again, would run twice).
    return this.addTimeout.race(added, {
      mapError: asUnavailable,
      ...(onTimeout
        ? {
            onTimeout: () =>
              onTimeout(
                added.then(
                  () => true,
                  () => false,
                ),
              ),
          }
        : {}),
    });
  }

  startWorker(): void {
    if (this.worker) return;
    const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on("error", (error) => warnThrottled("automation worker connection error", error));
    this.workerConnection = connection;
    // Slots have a connection of their own, pipelined: the slot calls of runs that start or end in
    // the same turn of the event loop share one socket write (BullMQ's blocking connection cannot).
    const slotsConnection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null, enableAutoPipelining: true });
    slotsConnection.on("error", (error) => warnThrottled("automation worker connection error", error));
    this.slotsConnection = slotsConnection;
    const slots = new ProjectRunSlots({
      redis: slotsConnection,
      keyPrefix: `${this.bullPrefix}:${AUTOMATION_QUEUE_NAME}:`,
      limit: this.options.projectConcurrency ?? PROJECT_CONCURRENCY,
    });
    this.slots = slots;
    this.worker = new Worker<SingleJobData | AutomationBatch>(
      AUTOMATION_QUEUE_NAME,
      (job, token) => (job.name === BATCH_JOB_NAME ? this.workBatch(job as Job<AutomationBatch>, token, slots) : this.work(job as Job<SingleJobData>, token, slots)),
      {
        connection,
        prefix: this.bullPrefix,
        concurrency: this.options.concurrency ?? WORKER_CONCURRENCY,
        lockDuration: this.options.lockDurationMs ?? 30_000,
        stalledInterval: this.options.stalledIntervalMs ?? 15_000,
        maxStalledCount: 1,
      },
    );
    this.worker.on("error", (error) => warnThrottled("automation worker error", error));
    this.worker.on("failed", (job, error) => {
      if (job && !(error instanceof AutomationRunFailed) && error.name !== "AutomationRunFailed") {
        log.error("automation job failed outside its run", { jobId: job.id, error: error.message });
      }
    });
  }

  private async work(job: Job<SingleJobData>, token: string | undefined, slots: ProjectRunSlots): Promise<AttemptOutcome> {
    const data = job.data;
    if (data.failedRun !== undefined) throw new AutomationRunFailed(data.failedRun);
    const attemptsBefore = data.attemptsBefore ?? 0;
    const attemptNumber = attemptsBefore + job.attemptsMade + 1;
    this.noteAutomationProject(data);
    const slot = await this.takeSlot(data.projectId, slots);
    if (!slot) {
      await job.moveToDelayed(Date.now() + SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS), token);
      throw new DelayedError();
    }
    let afterInterruption: boolean;
    try {
      afterInterruption = await this.noteInterruption(job);
    } catch (error) {
      slots.give(slot);
      throw error;
    }
    const outcome = await this.runInSlot(data, { number: attemptNumber, maxAttempts: attemptsBefore + (job.opts.attempts ?? 1), afterInterruption }, slot, slots);
    if (outcome.status === "deferred") {
      await job.moveToDelayed(Date.now() + DEFERRED_WAIT_MS, token);
      throw new DelayedError();
    }
    if (outcome.status === "failed") throw new AutomationRunFailed(outcome.error);
    return outcome;
  }

  /**
   * A run slot of the project, or null when the job should go back to the delayed set. A job gives up
   * after SLOT_WAIT_MS so that a project at its limit does not hold the worker's capacity while other
   * projects' jobs wait in the queue. While this worker's own runs hold the project's slots and only
   * the project's own jobs wait (or none), giving up helps nobody: the job would only come back behind
   * runs that arrived after it, 250–500 ms later, which is what a project's delay p99 was made of near
   * its limit. It keeps waiting then, for the handover of a slot its neighbours are about to free, up
   * to SLOT_LOCAL_WAIT_MAX_MS.
   */
  private async takeSlot(projectId: string, slots: ProjectRunSlots): Promise<RunSlot | null> {
    const free = await slots.tryTake(projectId);
    if (free) return free;
    const gaveUpAt = Date.now() + SLOT_LOCAL_WAIT_MAX_MS;
    // One place in line for the whole wait: looking up between waits does not send the job to the back.
    const line = slots.line(projectId, SLOT_RECHECK_MS);
    try {
      for (;;) {
        const slot = await line.next(SLOT_WAIT_MS);
        if (slot) return slot;
        // Holding none while asking Redis means a slot is on its way back to this worker: wait for the answer.
        const noneToHandOver = slots.heldCount(projectId) === 0 && !line.asking();
        if (Date.now() >= gaveUpAt || noneToHandOver || (await this.othersWaiting(projectId))) return line.leave();
      }
    } finally {
      line.leave();
    }
  }

  /**
   * Whether a job of another project (or one this worker cannot place) is among the next
   * WAITING_LOOK_AHEAD the queue hands out. A batch's id names its project; a job of its own is placed
   * by its automation, once this worker has run one of that automation's jobs.
   */
  private async othersWaiting(projectId: string): Promise<boolean> {
    const ids = await this.waitingJobIds();
    if (ids === null) return true;
    for (const id of ids) {
      const project = batchJobProject(id) ?? this.automationProjects.get(automationOfJobId(id));
      if (project !== projectId) return true;
    }
    return false;
  }

  /**
   * The ids of the jobs next in line (oldest first), asked at most every SLOT_WAIT_MS ÷ 2 for all jobs
   * of this worker at once; null when the queue cannot say (the job then goes back to the delayed set).
   */
  private waitingJobIds(): Promise<readonly string[] | null> {
    const now = Date.now();
    if (this.waitingCheck && now - this.waitingCheck.at < SLOT_WAIT_MS / 2) return this.waitingCheck.ids;
    const ids = this.queue.getRanges(["waiting"], 0, WAITING_LOOK_AHEAD - 1, true).catch(() => null);
    this.waitingCheck = { at: now, ids };
    return ids;
  }

  /** Notes a run's automation and project, so that its waiting jobs can be told apart (othersWaiting). */
  private noteAutomationProject(run: AutomationJob): void {
    if (this.automationProjects.get(run.automationId) === run.projectId) return;
    if (this.automationProjects.size >= MAX_KNOWN_AUTOMATIONS) this.automationProjects.clear();
    this.automationProjects.set(run.automationId, run.projectId);
  }

  /** Runs one attempt in a slot taken for it; the slot goes on to the next run once the steps are over, while the log is still being written. */
  private async runInSlot(run: AutomationJob, attempt: Omit<AutomationAttempt, "stepsDone">, slot: RunSlot, slots: ProjectRunSlots): Promise<AttemptOutcome> {
    const controller = new LightAbortController();
    this.controllers.add(controller);
    let slotGiven = false;
    const giveSlot = () => {
      if (slotGiven) return;
      slotGiven = true;
      slots.give(slot);
    };
    try {
      return await this.options.process(run, { ...attempt, stepsDone: giveSlot }, controller.signal);
    } finally {
      this.controllers.delete(controller);
      giveSlot();
    }
  }

  /**
   * Runs a batch's runs through the project's run slots, up to the project's limit at once. Runs the
   * project has no slot for within the wait (or that another kind of worker must run) stay in the
   * job, which goes back to the delayed set as a single job would. A batch started again (its
   * worker died, or a queue error failed it) has each run look in the log first.
   */
  private async workBatch(job: Job<AutomationBatch>, token: string | undefined, slots: ProjectRunSlots): Promise<void> {
    const runs = unpackBatch(job.data);
    const projectId = runs[0]?.projectId;
    if (!projectId) return;
    for (const run of runs) this.noteAutomationProject(run);
    const afterInterruption = await this.noteInterruption(job);
    const mayHaveRun = afterInterruption || job.attemptsMade > 0;
    const waiting = [...runs];
    const left: AutomationJob[] = [];
    let deferred = false;
    const lane = async (): Promise<void> => {
      while (waiting.length > 0 && !deferred) {
        const slot = await this.takeSlot(projectId, slots);
        if (!slot) return;
        const run = waiting.shift();
        if (!run || deferred) {
          if (run) left.push(run);
          slots.give(slot);
          return;
        }
        const outcome = await this.runFromBatch(run, slot, slots, { afterInterruption, mayHaveRun });
        if (outcome === "deferred") {
          deferred = true;
          left.push(run);
        }
      }
    };
    const lanes = Math.min(this.options.projectConcurrency ?? PROJECT_CONCURRENCY, runs.length);
    await Promise.all(Array.from({ length: lanes }, lane));
    left.push(...waiting);
    if (left.length === 0) return;
    await job.updateData(packBatch(left));
    const wait = deferred ? DEFERRED_WAIT_MS : SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS);
    await job.moveToDelayed(Date.now() + wait, token);
    throw new DelayedError();
  }

  /** One run of a batch, in a slot taken for it; a failed run goes on to a job of its own. */
  private async runFromBatch(
    run: AutomationJob,
    slot: RunSlot,
    slots: ProjectRunSlots,
    flags: { afterInterruption: boolean; mayHaveRun: boolean },
  ): Promise<AttemptOutcome["status"]> {
    let outcome: AttemptOutcome;
    try {
      outcome = await this.runInSlot(run, { number: 1, maxAttempts: 1 + run.retry.attempts, ...flags }, slot, slots);
    } catch (error) {
      // Not a failed run but a failure to run it (its log could not be written, say): its retries, as a job's would.
      await this.handOnFailedRun(run, error instanceof Error ? error.message : "the run could not be carried out");
      return "failed";
    }
    if (outcome.status === "failed") await this.handOnFailedRun(run, outcome.error);
    return outcome.status;
  }

  /**
   * A batch's run that failed becomes a job of its own under its id: with retries left, delayed by
   * the policy's backoff, counting attempts on from 2; without, failed at once (failedRun), kept
   * and listed as any failed job. A failure to queue it fails the batch, whose start again finds
   * the logged runs in the log and hands this one on again.
   */
  private async handOnFailedRun(run: AutomationJob, error: string): Promise<void> {
    const retries = run.retry.attempts;
    const data: SingleJobData = retries > 0 ? { ...run, attemptsBefore: 1 } : { ...run, attemptsBefore: 1, failedRun: error };
    await this.queue.add(run.triggerType, data, {
      jobId: run.id,
      attempts: Math.max(1, retries),
      backoff: { type: "fixed", delay: run.retry.backoffSeconds * 1_000 },
      delay: retries > 0 ? run.retry.backoffSeconds * 1_000 : 0,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    });
  }

  /**
   * Whether this start re-does one that never finished: BullMQ counts the times a job's worker
   * stopped renewing its lock (died mid-run) and put it back in the queue. The count this job's runs
   * have already reported is kept in the job's progress, so the retries that follow a re-run are not
   * reported as interrupted again. Costs a Redis call only in that rare case.
   */
  private async noteInterruption(job: Job<SingleJobData | AutomationBatch>): Promise<boolean> {
    const reported = typeof job.progress === "object" && job.progress !== null ? Number((job.progress as { stallsReported?: unknown }).stallsReported ?? 0) : 0;
    if (job.stalledCounter <= reported) return false;
    await job.updateProgress({ stallsReported: job.stalledCounter }).catch((error: unknown) => {
      log.warn("automation job's interruption could not be noted (a retry may be logged as interrupted too)", { jobId: job.id, error });
    });
    return true;
  }

  async failedJob(jobId: string): Promise<AutomationJob | null> {
    try {
      const job = await this.readTimeout.race(this.queue.getJob(jobId));
      if (!job || job.name === BATCH_JOB_NAME || !(await this.readTimeout.race(job.isFailed()))) return null;
      const { failedRun: _failure, ...run } = job.data as SingleJobData;
      return run;
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  async counts(): Promise<{ waiting: number | null; active: number | null; delayed: number | null; failed: number | null }> {
    try {
      const counts = await this.readTimeout.race(this.queue.getJobCounts("waiting", "active", "delayed", "failed"));
      return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 };
    } catch {
      return { waiting: null, active: null, delayed: null, failed: null };
    }
  }

  async close(timeoutMs = 15_000): Promise<void> {
    const closing = this.worker ? this.worker.close() : Promise.resolve();
    // Runs still going when the time is up are cut off; their jobs are re-run after the lock lapses.
    const timer = setTimeout(() => {
      for (const controller of this.controllers) controller.abort(new AppError("unavailable", "the worker is shutting down"));
    }, timeoutMs);
    try {
      await closing;
    } finally {
      clearTimeout(timer);
    }
    await this.slots?.close();
    await this.queue.close().catch(() => undefined);
    this.producer.disconnect();
    this.workerConnection?.disconnect();
    this.slotsConnection?.disconnect();
  }
}

/** A queue failure as callers see it: unavailable, unless it already says what went wrong. */
function asUnavailable(error: unknown): AppError {
  return error instanceof AppError ? error : new AppError("unavailable", "the automation queue is unavailable", { cause: error });
}

/** A run as a job of its own: its id is its idempotency key, its retry policy BullMQ's attempts. */
function singleJob(run: AutomationJob): JobToAdd {
  return {
    name: run.triggerType,
    data: run,
    opts: {
      jobId: run.id,
      attempts: 1 + run.retry.attempts,
      backoff: { type: "fixed", delay: run.retry.backoffSeconds * 1_000 },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    },
  };
}

/**
 * The adds of one gathering as BullMQ jobs: the record events of each project that has two or more
 * become one batch job; everything else stays a job of its own (see BullmqAutomationQueue). Each
 * job comes with the runs it carries.
 */
function groupIntoBatches(runs: readonly AutomationJob[]): Array<{ job: JobToAdd; members: AutomationJob[] }> {
  const groups: Array<{ job: JobToAdd; members: AutomationJob[] }> = [];
  const byProject = new Map<string, { members: AutomationJob[]; ids: Set<string> }>();
  for (const run of runs) {
    if (!isRecordEventRun(run) || run.redelivered || run.attemptsBefore) {
      groups.push({ job: singleJob(run), members: [run] });
      continue;
    }
    let group = byProject.get(run.projectId);
    if (!group) {
      group = { members: [], ids: new Set() };
      byProject.set(run.projectId, group);
    }
    // An event queued twice in one gathering is one run (a job's id would have done that).
    if (group.ids.has(run.id)) continue;
    group.ids.add(run.id);
    group.members.push(run);
  }
  for (const { members } of byProject.values()) {
    if (members.length === 1) {
      groups.push({ job: singleJob(members[0]!), members });
      continue;
    }
    groups.push({
      job: {
        name: BATCH_JOB_NAME,
        data: packBatch(members),
        opts: {
          jobId: batchJobId(members.length, members[0]!.projectId),
          attempts: BATCH_ATTEMPTS,
          backoff: { type: "fixed", delay: BATCH_BACKOFF_MS },
          // Its runs are known by the log, not by the batch's id: nothing to keep once it is done.
          removeOnComplete: true,
          removeOnFail: KEEP_FAILED,
        },
      },
      members,
    });
  }
  return groups;
}
