import type { ExecutionLogEntry } from "./execution-log-entry";
import { makeEntryStorable } from "./make-entry-storable";

export const SUMMARY_NOTE = "only a summary was kept: the database refused the full entry";

/**
 * What is left of an entry the database refused even alone: the run's identity (with an automation
 * run's trigger and attempt), time, outcome and HTTP status, with nothing the caller sent. A call
 * with a summary can still be found and counted; a call without an entry cannot.
 */
export function summarizeExecutionLogEntry(entry: ExecutionLogEntry): ExecutionLogEntry {
  const summary = makeEntryStorable({
    id: entry.id,
    source: entry.source,
    endpointId: entry.endpointId,
    automationId: entry.automationId,
    method: entry.method,
    slug: entry.slug,
    trigger: entry.trigger,
    attempt: entry.attempt,
    retryOf: entry.retryOf,
    ...(entry.afterInterruption ? { afterInterruption: true as const } : {}),
    ...(entry.jobId ? { jobId: entry.jobId } : {}),
    startedAt: entry.startedAt,
    durationMs: entry.durationMs,
    outcome: entry.outcome,
    httpStatus: entry.httpStatus,
    error: null,
    steps: [],
    request: null,
  });
  return { ...summary, note: SUMMARY_NOTE };
}
