import { isAppError } from "@/lib/errors";
import { parseFlowCached, type FlowStep, type FlowStepInput } from "@/lib/flow/flow-definition";
import { STEP_REGISTRY } from "@/lib/flow/steps/registry";
import { STEP_RUNNERS } from "@/lib/flow/steps/runners";
import type { StepKind } from "@/lib/flow/steps/step-kind";
import { log } from "@/lib/log";
import { RunBudget, type StepSignal } from "./budget";
import { createFlowContext, type FlowContext, type FlowContextInput } from "./context";
import type { FlowServices } from "./flow-services";
import { SecretMask, servicesWithSecretMask } from "./secret-mask";
import { FlowStop, type FlowStopResponse, type StepRunContext, type StepRunner } from "./step-runner";

/**
 * The flow engine. Steps run top to bottom; a success stores its output as `steps.<name>`; a
 * failure stops the run as failed unless the step continues on error; a condition that fails stops
 * the run cleanly. Disabled steps and steps after a stop or failure are skipped. The whole run has
 * a time budget (30 s); a step that does I/O is cut off by its abort signal when the budget or its
 * own limit runs out, and running out of the budget fails the run even with continue on error.
 *
 * The engine knows nothing of HTTP: custom endpoints, automations and test runs call it and turn
 * the result into an answer and an execution log.
 */

export type FlowOutcome = "completed" | "stopped" | "failed";
export type StepStatus = "ok" | "failed" | "skipped" | "stopped";

export interface StepResult {
  index: number;
  /** The output name, or null. */
  name: string | null;
  type: StepKind;
  status: StepStatus;
  durationMs: number;
  /** The step's output (null when it has none, failed or was skipped). */
  output: unknown;
  /** Why it failed or stopped; null otherwise. */
  error: string | null;
}

export interface FlowRunResult {
  outcome: FlowOutcome;
  steps: StepResult[];
  /** The final context (outputs under `steps`), for rendering the response. */
  context: FlowContext;
  /** When stopped by a condition: the answer it asks for. */
  stop: FlowStopResponse | null;
  /** When failed: which step failed the run and why. */
  error: { index: number; message: string } | null;
  durationMs: number;
}

export interface RunFlowOptions {
  /**
   * The flow's steps: a validateFlow/parseFlowOrThrow result, or stored JSON (parsed once per array
   * and cached; throws AppError 422 when invalid).
   */
  steps: readonly FlowStep[] | readonly FlowStepInput[];
  context?: FlowContextInput;
  services?: FlowServices;
  /** The run's time budget; default 30 000 ms. */
  budgetMs?: number;
  /** Aborting it ends the run (e.g. shutdown). */
  signal?: AbortSignal;
}

type StepOutcome = { kind: "ok"; output: unknown } | { kind: "stopped"; response: FlowStopResponse } | { kind: "failed"; message: string; endsRun: boolean };

function roundMs(ms: number): number {
  return Math.round(ms * 1_000) / 1_000;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
}

/** Settles with the promise, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}

function describeError(error: unknown, step: FlowStep, index: number, mask: SecretMask): string {
  if (isAppError(error)) {
    const details = error.issues?.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
    return details ? `${error.message} (${details})` : error.message;
  }
  // Driver and library messages can hold internals; they go to the server log only.
  log.error("flow step failed with an unexpected error", { stepIndex: index, stepType: step.type, error: mask.isEmpty ? error : mask.error(error) });
  return `internal error in the ${step.type} step`;
}

/** The context one runner gets; its abort signal (and timer) exists only once a runner asks for it. */
class StepRun implements StepRunContext {
  private opened: StepSignal | null = null;

  constructor(
    readonly context: FlowContext,
    readonly services: FlowServices,
    readonly index: number,
    readonly name: string | null,
    private readonly budget: RunBudget,
    private readonly timeoutMs: number | undefined,
    readonly mask: SecretMask,
  ) {}

  get signal(): AbortSignal {
    this.opened ??= this.budget.openStepSignal(this.timeoutMs);
    return this.opened.signal;
  }

  /** Set when the step's signal fired: the abort's reason and whether it ends the run. */
  abortInfo(): { reason: unknown; endsRun: boolean } | null {
    return this.opened !== null && this.opened.signal.aborted ? { reason: this.opened.signal.reason, endsRun: this.opened.endsRun } : null;
  }

  dispose(): void {
    this.opened?.dispose();
  }
}

function outcomeOf(result: unknown): StepOutcome {
  if (result instanceof FlowStop) return { kind: "stopped", response: result.response };
  return { kind: "ok", output: result === undefined ? null : result };
}

function failureOf(caught: unknown, run: StepRun, step: FlowStep, index: number): StepOutcome {
  // A runner that rejects because of the abort reports the abort's reason, not its own AbortError.
  const aborted = run.abortInfo();
  return { kind: "failed", message: describeError(aborted ? aborted.reason : caught, step, index, run.mask), endsRun: aborted?.endsRun ?? false };
}

async function settle(pending: PromiseLike<unknown>, run: StepRun, step: FlowStep, index: number): Promise<StepOutcome> {
  try {
    return outcomeOf(await untilAborted(pending, run.signal));
  } catch (caught) {
    return failureOf(caught, run, step, index);
  } finally {
    run.dispose();
  }
}

/** Synchronous steps (transform, condition) settle without a promise or a timer. */
function runStep(step: FlowStep, index: number, context: FlowContext, services: FlowServices, budget: RunBudget, mask: SecretMask): StepOutcome | Promise<StepOutcome> {
  const run = new StepRun(context, services, index, step.name, budget, STEP_REGISTRY[step.type].timeoutMs, mask);
  const runner = STEP_RUNNERS[step.type] as StepRunner<StepKind>;
  let result: unknown;
  try {
    result = runner(step as never, run);
  } catch (caught) {
    const failure = failureOf(caught, run, step, index);
    run.dispose();
    return failure;
  }
  if (isPromiseLike(result)) return settle(result, run, step, index);
  run.dispose();
  return outcomeOf(result);
}

function maskOutcome(outcome: StepOutcome, mask: SecretMask): StepOutcome {
  if (mask.isEmpty || outcome.kind === "stopped") return outcome;
  return outcome.kind === "ok" ? { kind: "ok", output: mask.value(outcome.output) } : { ...outcome, message: mask.text(outcome.message) };
}

function skipped(step: FlowStep, index: number): StepResult {
  return { index, name: step.name, type: step.type, status: "skipped", durationMs: 0, output: null, error: null };
}

export async function runFlow(options: RunFlowOptions): Promise<FlowRunResult> {
  const runStartedAt = performance.now();
  const steps = parseFlowCached(options.steps);
  const context = createFlowContext(options.context);
  // Secret values used by outbound steps are masked in every output and error before anyone sees them.
  const mask = new SecretMask();
  const services = servicesWithSecretMask(options.services ?? {}, mask);
  const budget = new RunBudget({ totalMs: options.budgetMs, signal: options.signal });

  const results: StepResult[] = [];
  let outcome: FlowOutcome = "completed";
  let stop: FlowStopResponse | null = null;
  let runError: FlowRunResult["error"] = null;

  for (let index = 0; index < steps.length; index++) {
    const step = steps[index] as FlowStep;
    if (outcome !== "completed" || !step.enabled) {
      results.push(skipped(step, index));
      continue;
    }
    const stopReason = budget.stopReason();
    if (stopReason !== null) {
      results.push({ index, name: step.name, type: step.type, status: "failed", durationMs: 0, output: null, error: stopReason.message });
      outcome = "failed";
      runError = { index, message: stopReason.message };
      continue;
    }

    const startedAt = performance.now();
    const pending = runStep(step, index, context, services, budget, mask);
    const stepOutcome = maskOutcome(pending instanceof Promise ? await pending : pending, mask);
    const durationMs = roundMs(performance.now() - startedAt);

    if (stepOutcome.kind === "ok") {
      if (step.name !== null) context.steps[step.name] = stepOutcome.output;
      results.push({ index, name: step.name, type: step.type, status: "ok", durationMs, output: stepOutcome.output, error: null });
    } else if (stepOutcome.kind === "stopped") {
      // The step's own answer, not the default body's words: the owner may have set both.
      results.push({
        index,
        name: step.name,
        type: step.type,
        status: "stopped",
        durationMs,
        output: null,
        error: `checks not met: the flow answered ${stepOutcome.response.status}`,
      });
      outcome = "stopped";
      stop = stepOutcome.response;
    } else {
      results.push({ index, name: step.name, type: step.type, status: "failed", durationMs, output: null, error: stepOutcome.message });
      if (stepOutcome.endsRun || !step.continueOnError) {
        outcome = "failed";
        runError = { index, message: stepOutcome.message };
      }
    }
  }

  return { outcome, steps: results, context, stop, error: runError, durationMs: roundMs(performance.now() - runStartedAt) };
}
