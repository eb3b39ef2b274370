import type { FlowOutcome, StepStatus } from "@/lib/flow/engine/run-flow";
import type { StepKind } from "@/lib/flow/steps/step-kind";

/** The customer-database collection that holds execution logs (they contain request data). */
export const EXECUTIONS_COLLECTION = "_executions";

export type ExecutionSource =
  | { type: "endpoint"; endpointId: string; method: string; slug: string }
  | { type: "automation"; automationId: string }
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
  startedAt: string;
  durationMs: number;
  outcome: FlowOutcome;
  /** The HTTP status answered, when there was a caller. */
  httpStatus: number | null;
  error: string | null;
  steps: ExecutionStepLog[];
  request: { query: unknown; body: string | null } | null;
  /** Set when characters the database cannot store were replaced (make-entry-storable.ts). */
  sanitized?: true;
  /** Why the stored entry differs from the run: what was replaced, or that only a summary was kept. */
  note?: string;
}
