import type { FlowOutcome, StepStatus } from "@/lib/flow/engine/run-flow";
import type { StepKind } from "@/lib/flow/steps/step-kind";
import type { TriggerType } from "@/lib/automations/automation-definition";
import type { ExecutionResponseLog } from "./preview-response";

export type { ExecutionResponseLog } from "./preview-response";

/**
 * How a logged call ended: the flow's own outcome, or `rejected` when the call was refused before any
 * step ran (its input broke the endpoint's declared input: no steps, status 400).
 */
export type ExecutionOutcome = FlowOutcome | "rejected";

/** The customer-database collection that holds execution logs (they contain request data). */
export const EXECUTIONS_COLLECTION = "_executions";

export type ExecutionSource =
  | { type: "endpoint"; endpointId: string; method: string; slug: string }
  | {
      type: "automation";
      automationId: string;
      trigger: TriggerType;
      /** 1 for the first run of a trigger event, then 2, 3… for its retries. */
      attempt: number;
      /** The execution this run retries, when it is a retry. */
      retryOf?: string | null;
      /** This run repeats one whose worker died mid-run (it may have done some of its steps). */
      afterInterruption?: boolean;
      /** The queue's job (its id is the trigger event's idempotency key): "Run again" finds the full payload there. */
      jobId?: string;
    }
  | { type: "test_run"; endpointId: string | null };

export interface ExecutionStepLog {
  index: number;
  name: string | null;
  type: StepKind;
  status: StepStatus;
  durationMs: number;
  error: string | null;
  /** The output, redacted and capped (see preview.ts). */
  outputPreview: string | null;
}

/** One run as stored and as the API answers it. */
export interface ExecutionLogEntry {
  id: string;
  source: ExecutionSource["type"];
  endpointId: string | null;
  automationId: string | null;
  method: string | null;
  slug: string | null;
  /** What started an automation run; null for endpoint calls and test runs. */
  trigger: TriggerType | null;
  /** An automation run's attempt (1 first, then retries); null for endpoint calls and test runs. */
  attempt: number | null;
  /** The execution an automation retry repeats; null otherwise. */
  retryOf: string | null;
  /** Set on an automation run that repeats one whose worker died mid-run. */
  afterInterruption?: true;
  /** An automation run's queue job id (a failed job keeps its whole trigger payload there for a while). */
  jobId?: string;
  startedAt: string;
  durationMs: number;
  outcome: ExecutionOutcome;
  /** The HTTP status answered, when there was a caller. */
  httpStatus: number | null;
  error: string | null;
  steps: ExecutionStepLog[];
  /**
   * What started the run, redacted, the body as a capped preview. An endpoint call or a test run
   * holds its query and JSON body; an automation run holds `query: null` and its trigger payload
   * (the form submission, the record event, the schedule tick) as the body. `userId`: the end
   * user's id on end-user endpoints (a test run's sample user), so a replay can act as them again.
   */
  request: { query: unknown; body: string | null; userId?: string } | null;
  /**
   * What an endpoint call or a test run answered (preview-response.ts): status, content type and the
   * owner's headers, and a body preview. Absent on automation runs and on entries logged before it was kept.
   */
  response?: ExecutionResponseLog;
  /** Set when characters the database cannot store were replaced (make-entry-storable.ts). */
  sanitized?: true;
  /** Why the stored entry differs from the run: what was replaced, or that only a summary was kept. */
  note?: string;
}
