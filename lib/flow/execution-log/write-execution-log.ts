import { getConfig } from "@/lib/config";
import type { FlowRunResult } from "@/lib/flow/engine/run-flow";
import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import type { ExecutionLogEntry, ExecutionOutcome, ExecutionSource } from "./execution-log-entry";
import { summarizeExecutionLogEntry } from "./summarize-execution-log-entry";
import { previewValue } from "./preview";
import { previewResponse, type SentResponse } from "./preview-response";
import { redactSecrets } from "./redact";
import { ensureExecutionLogIndexesInBackground } from "./ensure-execution-log-indexes";
import { pruneExecutionsOccasionally } from "./prune-executions";
import { queueExecutionLogEntry } from "./log-write-queue";

export interface WriteExecutionLogOptions {
  store: RecordStore;
  projectId: string;
  retentionDays: number;
  executionId: string;
  source: ExecutionSource;
  startedAt: Date;
  run: FlowRunResult | null;
  /** Set for a call refused before its steps ("rejected"); otherwise the run's outcome, "failed" without a run. */
  outcome?: ExecutionOutcome;
  httpStatus: number | null;
  /** Why the run did not happen or failed outside a step (an invalid stored flow, a bad response header). */
  error?: string | null;
  /** Endpoints and test runs: the call's query and body; automations: `{ query: null, body: <trigger payload> }`. */
  request?: { query: unknown; body: unknown; userId?: string | null } | null;
  /** The answer sent to the caller (endpoint calls and test runs), kept as a redacted, capped preview. */
  response?: SentResponse | null;
}

/**
 * previewValue, once per object: an answer of `{{steps.<name>}}` is that step's output, which the
 * entry already previews (40 records cost the same preview twice otherwise).
 */
function previewOncePerValue(): (value: unknown) => string | null {
  const previews = new Map<object, string | null>();
  return (value) => {
    if (value === null || typeof value !== "object") return previewValue(value);
    let preview = previews.get(value);
    if (preview === undefined) {
      preview = previewValue(value);
      previews.set(value, preview);
    }
    return preview;
  };
}

export function buildExecutionLogEntry(options: Omit<WriteExecutionLogOptions, "store" | "projectId" | "retentionDays">): ExecutionLogEntry {
  const { source, run } = options;
  const preview = previewOncePerValue();
  return {
    id: options.executionId,
    source: source.type,
    endpointId: source.type === "automation" ? null : source.endpointId,
    automationId: source.type === "automation" ? source.automationId : null,
    method: source.type === "endpoint" ? source.method : null,
    slug: source.type === "endpoint" ? source.slug : null,
    trigger: source.type === "automation" ? source.trigger : null,
    attempt: source.type === "automation" ? source.attempt : null,
    retryOf: source.type === "automation" ? (source.retryOf ?? null) : null,
    ...(source.type === "automation" && source.afterInterruption ? { afterInterruption: true as const } : {}),
    ...(source.type === "automation" && source.jobId ? { jobId: source.jobId } : {}),
    startedAt: options.startedAt.toISOString(),
    durationMs: run?.durationMs ?? 0,
    outcome: options.outcome ?? run?.outcome ?? "failed",
    httpStatus: options.httpStatus,
    error: options.error ?? run?.error?.message ?? null,
    steps: (run?.steps ?? []).map((step) => ({
      index: step.index,
      name: step.name,
      type: step.type,
      status: step.status,
      durationMs: step.durationMs,
      error: step.error,
      outputPreview: preview(step.output),
    })),
    request: options.request
      ? {
          query: redactSecrets(options.request.query),
          body: previewValue(options.request.body),
          ...(options.request.userId ? { userId: options.request.userId.slice(0, 200) } : {}),
        }
      : null,
    ...(options.response ? { response: previewResponse(options.response, preview) } : {}),
  };
}

/** The entry; when the run's details cannot be serialised (a throwing toJSON), its summary rather than no log. */
function buildEntryOrSummary(options: WriteExecutionLogOptions): ExecutionLogEntry {
  try {
    return buildExecutionLogEntry(options);
  } catch (error) {
    log.warn("execution log details could not be serialised: storing a summary", { executionId: options.executionId, error });
    const run = options.run ? { ...options.run, steps: [] } : null;
    return summarizeExecutionLogEntry(buildExecutionLogEntry({ ...options, run, request: null, response: null }));
  }
}

/**
 * Stores a run's log in the customer's database, batched with other runs' (log-write-queue.ts).
 * Called after the response (waitUntil); it never throws — a log that cannot be written is
 * reported in the server log and the run stands. Caller input never stops the entry from being
 * stored: see log-write-queue.ts.
 */
export async function writeExecutionLog(options: WriteExecutionLogOptions): Promise<void> {
  try {
    const written = await queueExecutionLogEntry(options.store, options.projectId, buildEntryOrSummary(options));
    if (written) {
      // The first entry creates the log's collection; its indexes follow at once (once per process).
      ensureExecutionLogIndexesInBackground(options.store, options.projectId);
      pruneExecutionsOccasionally({ store: options.store, projectId: options.projectId, retentionDays: options.retentionDays });
    }
  } catch (error) {
    if (getConfig().NODE_ENV !== "test") log.error("execution log could not be written", { projectId: options.projectId, executionId: options.executionId, error });
    else log.warn("execution log could not be written", { executionId: options.executionId, error });
  }
}
