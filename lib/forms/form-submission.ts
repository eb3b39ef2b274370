import type { StoredRecord } from "@/lib/records/record-store";

/** The customer-database collection that holds form submissions (they are the customer's data). */
export const FORM_SUBMISSIONS_COLLECTION = "_form_submissions";

/** Fixed guardrails of the public form intake (docs/DESIGN.md sections 5 and 6). */
export const FORM_LIMITS = {
  /** The request body, counted while streaming (the same 100 KB as invocations). */
  maxBodyBytes: 100 * 1024,
  /** Fields per submission; a repeated name counts once per value. */
  maxFields: 200,
  /** Characters in a field name. */
  maxFieldNameLength: 100,
  maxUserAgentLength: 512,
  maxOriginLength: 2_000,
} as const;

/**
 * Fields as submitted: name → value. A form post gives text (a repeated name gives an array of
 * text, in the order sent); a JSON post gives any JSON value.
 */
export type FormFields = Record<string, unknown>;

/** One stored submission, as the management API answers it. */
export interface FormSubmission {
  id: string;
  form: string;
  automationId: string;
  fields: FormFields;
  submittedAt: string;
  /** The client IP as the rate limit reads it ("unknown" when it is not an IP address). */
  ip: string;
  userAgent: string | null;
  /** The request's Origin header (null for posts without one). */
  origin: string | null;
  /**
   * True once the run was handed to the automation queue. False means the queue could not take it
   * (or the process stopped in between): the submission is kept and can be queued again.
   */
  queued: boolean;
}

/** The stored document also carries the fields as JSON text, which `search` matches substrings of. */
export const SEARCH_TEXT_FIELD = "fieldsText";

/**
 * The fields in the order they were submitted: some databases keep object keys in their own order
 * (PostgreSQL jsonb sorts them), but the stored JSON text keeps the visitor's.
 */
function fieldsInSubmittedOrder(record: StoredRecord): FormFields {
  const stored = (record.fields ?? {}) as FormFields;
  const text = record[SEARCH_TEXT_FIELD];
  if (typeof text !== "string") return stored;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as FormFields) : stored;
  } catch {
    return stored;
  }
}

export function presentFormSubmission(record: StoredRecord): FormSubmission {
  return {
    id: record.id,
    form: String(record.form ?? ""),
    automationId: String(record.automationId ?? ""),
    fields: fieldsInSubmittedOrder(record),
    submittedAt: String(record.submittedAt ?? record.createdAt),
    ip: String(record.ip ?? "unknown"),
    userAgent: typeof record.userAgent === "string" ? record.userAgent : null,
    origin: typeof record.origin === "string" ? record.origin : null,
    queued: record.queued === true,
  };
}
