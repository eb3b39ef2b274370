import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import { smallestIdAt } from "@/lib/ids";
import type { FieldCondition, RecordStore, StoredRecord } from "@/lib/records/record-store";
import { ensureExecutionLogIndexesInBackground } from "./ensure-execution-log-indexes";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";

export const EXECUTION_ID_PATTERN = /^exe_[0-9a-z]{26}$/;

/**
 * A run's id is minted when it is queued or called, never after it starts; only the clocks of two
 * instances (the one that queued it, the one that ran it) can disagree, by far less than this.
 */
const ID_CLOCK_SLACK_MS = 5 * 60 * 1000;

/** A GET form sends an empty text for a control left blank: that is no filter. */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === "" ? undefined : value), schema.optional());
}

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A point in time as ISO 8601 text, the form startedAt is stored in (so text order is time order).
 * A time without a zone (what a datetime-local control sends) and a bare date are read as UTC.
 */
const instant = z
  .string()
  .trim()
  .max(40)
  .transform((text, context) => {
    const withZone = DATE_ONLY.test(text) ? `${text}T00:00:00Z` : LOCAL_TIME.test(text) ? `${text}Z` : text;
    const ms = Date.parse(withZone);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(withZone) || Number.isNaN(ms)) {
      context.addIssue({ code: "custom", message: "must be a date and time (ISO 8601, UTC unless a zone is given)" });
      return z.NEVER;
    }
    return new Date(ms).toISOString();
  });

export const listExecutionsQuery = z
  .object({
    outcome: optional(z.enum(["completed", "stopped", "failed", "rejected"])),
    source: optional(z.enum(["endpoint", "automation", "test_run"])),
    endpointId: optional(z.string().regex(/^ep_[0-9a-z]{26}$/, "must be an endpoint id")),
    automationId: optional(z.string().regex(/^aut_[0-9a-z]{26}$/, "must be an automation id")),
    /** The HTTP status answered: one code (`404`) or a class (`4xx`). */
    status: optional(z.string().regex(/^[1-5](\d\d|xx)$/, "must be a status code (404) or a class (4xx)")),
    /** Runs started at or after this time. */
    from: optional(instant),
    /** Runs started before this time. */
    to: optional(instant),
    limit: optional(z.coerce.number().int().min(1).max(100)).transform((limit) => limit ?? 20),
    /** Cursor: entries older than this execution id (the previous page's `nextBefore`). */
    before: optional(z.string().regex(EXECUTION_ID_PATTERN, "must be an execution id")),
  })
  .refine((query) => !query.from || !query.to || query.from < query.to, { path: ["to"], message: "must be later than from" });

export type ExecutionListQuery = z.output<typeof listExecutionsQuery>;

/** A stored entry as the API answers it; entries stored before automations ran lack their fields. */
export function presentExecution(record: StoredRecord): ExecutionLogEntry {
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...entry } = record;
  return { trigger: null, attempt: null, retryOf: null, ...entry } as unknown as ExecutionLogEntry;
}

function statusConditions(status: string): FieldCondition[] {
  if (status.endsWith("xx")) {
    const floor = Number(status[0]) * 100;
    return [
      { field: "httpStatus", op: "gte", value: floor },
      { field: "httpStatus", op: "lt", value: floor + 100 },
    ];
  }
  return [{ field: "httpStatus", op: "eq", value: Number(status) }];
}

/** The store conditions of a parsed query, besides the scope the caller fixes. */
export function executionConditions(query: ExecutionListQuery): FieldCondition[] {
  const where: FieldCondition[] = [];
  if (query.endpointId) where.push({ field: "endpointId", op: "eq", value: query.endpointId });
  if (query.automationId) where.push({ field: "automationId", op: "eq", value: query.automationId });
  if (query.outcome) where.push({ field: "outcome", op: "eq", value: query.outcome });
  if (query.source) where.push({ field: "source", op: "eq", value: query.source });
  if (query.status) where.push(...statusConditions(query.status));
  if (query.from) where.push({ field: "startedAt", op: "gte", value: query.from });
  if (query.to) {
    where.push({ field: "startedAt", op: "lt", value: query.to });
    // The same bound on the primary key, which the newest-first order walks: a page of an old time
    // range starts near its end instead of reading every newer entry first.
    where.push({ field: "id", op: "lt", value: smallestIdAt("execution", Date.parse(query.to) + ID_CLOCK_SLACK_MS) });
  }
  if (query.before) where.push({ field: "id", op: "lt", value: query.before });
  return where;
}

export function parseExecutionListQuery(query: unknown): ExecutionListQuery {
  const parsed = listExecutionsQuery.safeParse(query);
  if (!parsed.success) throw new AppError("bad_request", "invalid query", { issues: issuesFromZod(parsed.error) });
  return parsed.data;
}

/**
 * Log entries of one endpoint or automation (or all), newest first, filtered by endpoint,
 * automation, outcome, source, HTTP status and start time; `nextBefore` pages on. Execution ids are
 * time-ordered and unique, so the id is the cursor (keyset paging on the primary key: every page
 * costs the same however deep it is, and no entry is repeated or skipped). `scope` holds conditions
 * the caller fixes (the route's endpoint, what the caller may read), added to the query's own.
 */
export async function listExecutions(options: {
  store: RecordStore;
  endpointId?: string;
  automationId?: string;
  scope?: FieldCondition[];
  query: unknown;
}): Promise<{ data: ExecutionLogEntry[]; nextBefore: string | null }> {
  const query = parseExecutionListQuery(options.query);
  // A log written before the indexes existed gets them here; this page does not wait for the build.
  ensureExecutionLogIndexesInBackground(options.store);
  const where: FieldCondition[] = [...(options.scope ?? [])];
  if (options.endpointId) where.push({ field: "endpointId", op: "eq", value: options.endpointId });
  if (options.automationId) where.push({ field: "automationId", op: "eq", value: options.automationId });
  where.push(...executionConditions(query));
  const records = await options.store.find(EXECUTIONS_COLLECTION, { where, sort: [{ field: "id", direction: "desc" }], limit: query.limit + 1 });
  const data = records.slice(0, query.limit).map(presentExecution);
  return { data, nextBefore: records.length > query.limit ? (data[data.length - 1]?.id ?? null) : null };
}
