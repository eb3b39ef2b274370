import { z } from "zod";
import { AppError, issuesFromZod } from "@/lib/errors";
import type { FieldCondition, RecordStore, StoredRecord } from "@/lib/records/record-store";
import { FORM_SUBMISSIONS_COLLECTION, SEARCH_TEXT_FIELD, presentFormSubmission, type FormSubmission } from "./form-submission";

export const SUBMISSION_ID_PATTERN = /^sub_[0-9a-z]{26}$/;

export const listFormSubmissionsQuery = z.object({
  /** Case-insensitive substring of the submission's fields as JSON (names and values). */
  search: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Cursor: submissions older than this submission id. */
  before: z.string().regex(SUBMISSION_ID_PATTERN, "must be a submission id").optional(),
});

export type ListFormSubmissionsQuery = z.output<typeof listFormSubmissionsQuery>;

export function parseFormSubmissionsQuery(query: unknown): ListFormSubmissionsQuery {
  const parsed = listFormSubmissionsQuery.safeParse(query);
  if (!parsed.success) throw new AppError("bad_request", "invalid query", { issues: issuesFromZod(parsed.error) });
  return parsed.data;
}

/** One page of an automation's stored submissions, newest first (ids are time-ordered). */
export async function findFormSubmissionRecords(options: { store: RecordStore; automationId: string; search?: string; before?: string; limit: number }): Promise<StoredRecord[]> {
  const where: FieldCondition[] = [{ field: "automationId", op: "eq", value: options.automationId }];
  if (options.before) where.push({ field: "id", op: "lt", value: options.before });
  return options.store.find(FORM_SUBMISSIONS_COLLECTION, {
    where,
    search: options.search ? { text: options.search, fields: [SEARCH_TEXT_FIELD] } : undefined,
    sort: [{ field: "id", direction: "desc" }],
    limit: options.limit,
  });
}

/**
 * An automation's submissions, newest first, optionally filtered by `search`; `nextBefore` pages on
 * (`?before=<id>`), as execution logs do (lib/flow/execution-log/list-executions.ts).
 */
export async function listFormSubmissions(options: { store: RecordStore; automationId: string; query: unknown }): Promise<{ data: FormSubmission[]; nextBefore: string | null }> {
  const { search, limit, before } = parseFormSubmissionsQuery(options.query);
  const records = await findFormSubmissionRecords({ store: options.store, automationId: options.automationId, search, before, limit: limit + 1 });
  const data = records.slice(0, limit).map(presentFormSubmission);
  return { data, nextBefore: records.length > limit ? (data[data.length - 1]?.id ?? null) : null };
}
