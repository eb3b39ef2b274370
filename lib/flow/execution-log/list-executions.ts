import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import type { FieldCondition, RecordStore, StoredRecord } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";

export const listExecutionsQuery = z.object({
  outcome: z.enum(["completed", "stopped", "failed"]).optional(),
  source: z.enum(["endpoint", "automation", "test_run"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Cursor: entries older than this execution id. */
  before: z
    .string()
    .regex(/^exe_[0-9a-z]{26}$/)
    .optional(),
});

/** A stored entry as the API answers it; entries stored before automations ran lack their fields. */
export function presentExecution(record: StoredRecord): ExecutionLogEntry {
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...entry } = record;
  return { trigger: null, attempt: null, retryOf: null, ...entry } as unknown as ExecutionLogEntry;
}

/**
 * Log entries of one endpoint or automation (or all), newest first, filtered by outcome and source;
 * `nextBefore` pages on. Execution ids are time-ordered, so the id is the cursor.
 */
export async function listExecutions(options: {
  store: RecordStore;
  endpointId?: string;
  automationId?: string;
  query: unknown;
}): Promise<{ data: ExecutionLogEntry[]; nextBefore: string | null }> {
  const parsed = listExecutionsQuery.safeParse(options.query);
  if (!parsed.success) throw new AppError("bad_request", "invalid query", { issues: issuesFromZod(parsed.error) });
  const { outcome, source, limit, before } = parsed.data;
  const where: FieldCondition[] = [];
  if (options.endpointId) where.push({ field: "endpointId", op: "eq", value: options.endpointId });
  if (options.automationId) where.push({ field: "automationId", op: "eq", value: options.automationId });
  if (outcome) where.push({ field: "outcome", op: "eq", value: outcome });
  if (source) where.push({ field: "source", op: "eq", value: source });
  if (before) where.push({ field: "id", op: "lt", value: before });
  const records = await options.store.find(EXECUTIONS_COLLECTION, { where, sort: [{ field: "id", direction: "desc" }], limit: limit + 1 });
  const data = records.slice(0, limit).map(presentExecution);
  return { data, nextBefore: records.length > limit ? (data[data.length - 1]?.id ?? null) : null };
}
