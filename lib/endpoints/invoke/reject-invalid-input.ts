import type { ErrorIssue } from "@/lib/errors";
import type { ExecutionSource } from "@/lib/flow/execution-log/execution-log-entry";
import { writeExecutionLog } from "@/lib/flow/execution-log/write-execution-log";
import { newId } from "@/lib/ids";
import type { RecordStore } from "@/lib/records/record-store";
import type { CachedResponse } from "./response-cache";

const JSON_TYPE = "application/json; charset=utf-8";
export const INVALID_REQUEST_ERROR = "invalid request";

export interface RejectedCall {
  executionId: string;
  response: CachedResponse;
  /** Settles when the log entry is stored (it never throws: writeExecutionLog reports its own failures). */
  logged: Promise<void>;
}

/**
 * The answer to a call whose query or body breaks the endpoint's declared input: 400 with exactly
 * `{"error":"invalid request","issues":[...]}` (no `code`, like every invocation error), and an
 * execution log entry with outcome `rejected`, no steps and the issues as its error. The issues
 * name fields and rules, never the caller's values. The caller decides whether to wait for the log
 * (test runs) or to keep it alive past the response (calls, through waitUntil).
 */
export function rejectInvalidInput(options: {
  project: { id: string; logRetentionDays: number };
  store: RecordStore;
  source: ExecutionSource;
  issues: ErrorIssue[];
  request: { query: unknown; body: unknown; userId?: string | null };
}): RejectedCall {
  const { issues } = options;
  const executionId = newId("execution");
  const response: CachedResponse = { status: 400, contentType: JSON_TYPE, headers: {}, body: JSON.stringify({ error: INVALID_REQUEST_ERROR, issues }) };
  const logged = writeExecutionLog({
    store: options.store,
    projectId: options.project.id,
    retentionDays: options.project.logRetentionDays,
    executionId,
    source: options.source,
    startedAt: new Date(),
    run: null,
    outcome: "rejected",
    httpStatus: 400,
    error: `${INVALID_REQUEST_ERROR}: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
    request: options.request,
    response,
  });
  return { executionId, response, logged };
}
