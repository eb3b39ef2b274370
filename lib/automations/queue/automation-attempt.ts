/**
 * What the queue hands the job runner with each attempt, and what the runner answers
 * (run-automation-job.ts). Shared by every queue backend, which must not import the runner: the
 * runner reaches the flow engine and the records service, whose writes queue jobs again.
 */
export interface AutomationAttempt {
  /** 1 for the first run of the job. */
  number: number;
  /** How many attempts the retry policy allows in all (1 + retries). */
  maxAttempts: number;
  /** The job's previous start never finished (its worker died mid-run): this run re-does it. */
  afterInterruption: boolean;
  /**
   * This attempt may have run already (its job was interrupted or started again after a queue
   * error): the runner looks in the execution log for it first and answers what it logged.
   */
  mayHaveRun?: boolean;
  /**
   * Called once the flow's steps are over, before the log is written: the queue gives the project's
   * run slot back there, so that a slot is held by running steps, not by bookkeeping.
   */
  stepsDone?: () => void;
}

export type AttemptOutcome =
  | { status: "completed" | "stopped"; executionId: string }
  | { status: "failed"; executionId: string; error: string }
  | { status: "skipped"; reason: string }
  /** Not run here: the project's built-in database belongs to an app process (see AutomationRunnerOptions). */
  | { status: "deferred" };

export interface AutomationRunnerOptions {
  /**
   * False in `npm run worker`: a project on the built-in (embedded PGlite) database keeps its data in
   * the app process's data directory, which no second process may open; its jobs are left for the
   * app instances' workers.
   */
  opensBuiltInDatabases: boolean;
}
