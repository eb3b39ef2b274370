import type { FlowStepOf } from "@/lib/flow/flow-definition";
import type { StepKind } from "@/lib/flow/steps/step-kind";
import type { FlowContext } from "./context";
import type { FlowServices } from "./flow-services";

/** What a runner gets besides its settings. */
export interface StepRunContext {
  /** The run context (read it, never change it: the engine stores outputs). */
  readonly context: FlowContext;
  readonly services: FlowServices;
  /**
   * Fires at the smaller of the step's own limit and what is left of the run budget. Pass it to
   * every database operation, outbound call and mail send. Created on first read, so synchronous
   * steps cost no timer.
   */
  readonly signal: AbortSignal;
  readonly index: number;
  /** The step's output name, if it has one. */
  readonly name: string | null;
}

/** The answer a condition asks for when its checks fail. */
export interface FlowStopResponse {
  status: number;
  /** Rendered text; the response layer serves it with the usual JSON rules. */
  body: string;
}

/** Returned (not thrown) by a runner to stop the run cleanly; the remaining steps are skipped. */
export class FlowStop {
  constructor(readonly response: FlowStopResponse) {}
}

/**
 * Runs one step: settings are the validated step of its kind, rendered by the runner against the
 * context. Returns the JSON output (undefined is stored as null) or a FlowStop; throws to fail.
 */
export type StepRunner<K extends StepKind> = (step: FlowStepOf<K>, stepContext: StepRunContext) => unknown;
