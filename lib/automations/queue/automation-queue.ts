import type { AutomationJob } from "./automation-job";

export interface AddOptions {
  /**
   * add() gave up waiting for the queue (it then rejects with "unavailable") while the jobs may still
   * arrive: called first, with what becomes of them (true once the queue holds them, false if never).
   */
  onTimeout?: (outcome: Promise<boolean>) => void;
}

/**
 * Where automation runs wait (issue 10, "Running in the background"). Two implementations behind
 * this interface: BullMQ on Redis (durable, shared by every instance, `npm run worker`) and an
 * in-process queue for embedded mode (one process, runs after the answer, lost on restart).
 */
export interface AutomationQueue {
  readonly kind: "bullmq" | "in-process";
  /** True when queued runs survive a restart of this process. */
  readonly durable: boolean;
  /**
   * Resolves once the queue holds the jobs; a job whose id the queue knows is skipped (idempotency).
   * Rejects with AppError("unavailable") when it cannot take them.
   */
  add(jobs: readonly AutomationJob[], options?: AddOptions): Promise<void>;
  /** Starts working the queue in this process (idempotent). */
  startWorker(): void;
  /**
   * A job whose runs all failed, while the queue still keeps it (BullMQ: 7 days, the last 10,000; in
   * process: the last 1,000 until a restart); null otherwise. "Run again" queues its whole payload.
   */
  failedJob(jobId: string): Promise<AutomationJob | null>;
  /** Counts for /api/health and the benchmark; null fields when the queue cannot be reached. */
  counts(): Promise<{ waiting: number | null; active: number | null; delayed: number | null; failed: number | null }>;
  /** Stops taking jobs, waits for runs in progress (at most `timeoutMs`), closes connections. */
  close(timeoutMs?: number): Promise<void>;
}

/** How many runs of one project may run at once across all workers (a flood does not starve others). */
export const PROJECT_CONCURRENCY = 5;
/** How many runs one process works on at once. */
export const WORKER_CONCURRENCY = 20;
