import { LightAbortController } from "@/lib/abort/light-abort-controller";
import { AppError } from "@/lib/errors";
import { FLOW_LIMITS } from "@/lib/flow/limits";

export interface StepSignal {
  readonly signal: AbortSignal;
  /**
   * True when the abort came from the run (budget used up, caller aborted) rather than from the
   * step's own limit: such a failure ends the run even with continue on error.
   */
  readonly endsRun: boolean;
  /** Clears the timer and listeners. */
  dispose(): void;
}

export interface CreateRunBudgetOptions {
  /** Default: FLOW_LIMITS.runBudgetMs (30 s). Tests use a short one. */
  totalMs?: number;
  /** The caller's own signal (e.g. a shutdown); aborting it ends the run. */
  signal?: AbortSignal;
}

export function runBudgetExhaustedError(totalMs: number): AppError {
  return new AppError("timeout", `run time budget of ${totalMs} ms exhausted`);
}

export function stepTimedOutError(limitMs: number): AppError {
  return new AppError("timeout", `step timed out after ${limitMs} ms`);
}

export function runCancelledError(): AppError {
  return new AppError("unavailable", "run was cancelled");
}

/**
 * The time budget of one run. Every step that does I/O gets an abort signal that fires at the
 * smaller of its own limit and what is left of the run; database operations, outbound calls and
 * mail are cut off by it. Synchronous steps (transform, condition) never ask for a signal, so they
 * cost no timer.
 */
export class RunBudget {
  readonly totalMs: number;
  private readonly deadline: number;
  private readonly callerSignal: AbortSignal | undefined;

  constructor(options: CreateRunBudgetOptions = {}) {
    this.totalMs = options.totalMs ?? FLOW_LIMITS.runBudgetMs;
    this.callerSignal = options.signal;
    this.deadline = performance.now() + this.totalMs;
  }

  /** Milliseconds left, never negative. */
  remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /** The error that ends the run now (budget used up, or the caller aborted), or null. */
  stopReason(): AppError | null {
    if (this.callerSignal?.aborted) return runCancelledError();
    return this.remainingMs() <= 0 ? runBudgetExhaustedError(this.totalMs) : null;
  }

  /** Opens the abort signal of one step; the caller must dispose it when the step ends. */
  openStepSignal(stepLimitMs?: number): StepSignal {
    const controller = new LightAbortController();
    const remaining = this.remainingMs();
    const ownLimitFirst = stepLimitMs !== undefined && stepLimitMs < remaining;
    const totalMs = this.totalMs;
    const callerSignal = this.callerSignal;
    let endsRun = false;

    const timer = setTimeout(
      () => {
        endsRun = !ownLimitFirst;
        controller.abort(ownLimitFirst ? stepTimedOutError(stepLimitMs) : runBudgetExhaustedError(totalMs));
      },
      ownLimitFirst ? stepLimitMs : remaining,
    );
    const onCallerAbort = () => {
      endsRun = true;
      controller.abort(runCancelledError());
    };
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

    return {
      signal: controller.signal,
      get endsRun() {
        return endsRun;
      },
      dispose() {
        clearTimeout(timer);
        callerSignal?.removeEventListener("abort", onCallerAbort);
      },
    };
  }
}

export function createRunBudget(options: CreateRunBudgetOptions = {}): RunBudget {
  return new RunBudget(options);
}
