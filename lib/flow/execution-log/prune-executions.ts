import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION } from "./execution-log-entry";

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const lastPruned = new Map<string, number>();

/** Deletes a project's log entries older than its retention (days). Answers how many went. */
export async function pruneExecutions(options: { store: RecordStore; retentionDays: number; now?: Date }): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.retentionDays * 24 * 60 * 60 * 1000);
  return options.store.deleteMany(EXECUTIONS_COLLECTION, [{ field: "createdAt", op: "lt", value: cutoff.toISOString() }], { timeoutMs: 30_000 });
}

/** At most once an hour per project and process, off the caller's path. */
export function pruneExecutionsOccasionally(options: { store: RecordStore; projectId: string; retentionDays: number }): void {
  const now = Date.now();
  if ((lastPruned.get(options.projectId) ?? 0) > now - PRUNE_INTERVAL_MS) return;
  lastPruned.set(options.projectId, now);
  void pruneExecutions(options).catch((error: unknown) => log.warn("execution log pruning failed", { projectId: options.projectId, error }));
}
