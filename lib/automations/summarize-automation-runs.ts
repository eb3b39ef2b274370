import { isAppError } from "@/lib/errors";
import type { FlowOutcome } from "@/lib/flow/engine/run-flow";
import { EXECUTIONS_COLLECTION } from "@/lib/flow/execution-log/execution-log-entry";
import { log } from "@/lib/log";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { RecordStore } from "@/lib/records/record-store";

export interface AutomationRunSummary {
  /** The newest logged run, or null when the automation has not run (within the log's retention). */
  lastRun: { executionId: string; startedAt: string; outcome: FlowOutcome } | null;
  /** Failed runs that started in the 24 hours before `now`. */
  failuresLast24h: number;
}

export type AutomationRunsSummary =
  | { ok: true; byAutomation: Map<string, AutomationRunSummary> }
  /** The customer database could not be read: the list says "unavailable" rather than failing. */
  | { ok: false; message: string };

const DAY_MS = 24 * 60 * 60 * 1000;
/** The whole summary's budget: the list page waits this long at most for a slow or stopped database. */
const SUMMARY_TIMEOUT_MS = 5_000;
/** Automations read at once, so that a project with many of them does not take the whole pool. */
const CONCURRENCY = 4;

async function summarizeOne(store: RecordStore, automationId: string, since: string, signal: AbortSignal): Promise<AutomationRunSummary> {
  const byAutomation = { field: "automationId", op: "eq", value: automationId } as const;
  // Two bounded reads per automation: the newest entry (limit 1, by the time-ordered id) and a count.
  const [[last], failures] = await Promise.all([
    store.find(EXECUTIONS_COLLECTION, { where: [byAutomation], sort: [{ field: "id", direction: "desc" }], limit: 1, signal }),
    store.count(EXECUTIONS_COLLECTION, {
      where: [byAutomation, { field: "outcome", op: "eq", value: "failed" }, { field: "startedAt", op: "gte", value: since }],
      signal,
    }),
  ]);
  return {
    lastRun: last ? { executionId: last.id, startedAt: String(last.startedAt ?? last.createdAt), outcome: last.outcome as FlowOutcome } : null,
    failuresLast24h: failures,
  };
}

/**
 * The last run and the failures of the last 24 hours of each automation, read from the project's
 * execution log in its customer database (`_executions`). Never throws for the database: one that
 * is down, slow (over 5 s in total) or refusing answers `{ok: false}`, so the automations list
 * still shows the definitions, which live in the platform database.
 */
export async function summarizeAutomationRuns(options: { project: ProjectRow; automationIds: readonly string[]; now?: Date }): Promise<AutomationRunsSummary> {
  const byAutomation = new Map<string, AutomationRunSummary>();
  if (options.automationIds.length === 0) return { ok: true, byAutomation };
  const since = new Date((options.now ?? new Date()).getTime() - DAY_MS).toISOString();
  // One failed read stops the others: the summary is shown whole or not at all.
  const failed = new AbortController();
  const signal = AbortSignal.any([failed.signal, AbortSignal.timeout(SUMMARY_TIMEOUT_MS)]);
  try {
    const store = await getProjectRecordStore({ project: options.project });
    const queue = [...options.automationIds];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) byAutomation.set(id, await summarizeOne(store, id, since, signal));
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    return { ok: true, byAutomation };
  } catch (error) {
    failed.abort();
    if (isAppError(error) && error.isPublic) return { ok: false, message: error.message };
    log.warn("automation run summary unavailable", { projectId: options.project.id, error: error instanceof Error ? error.message : String(error) });
    return { ok: false, message: "the project's database could not be read" };
  }
}
