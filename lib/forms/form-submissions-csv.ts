import { escapeCsvField } from "@/lib/flow/engine/escape-csv-field";
import type { RecordStore } from "@/lib/records/record-store";
import { SEARCH_TEXT_FIELD, presentFormSubmission, type FormSubmission } from "./form-submission";
import { findFormSubmissionRecords, parseFormSubmissionsQuery } from "./list-form-submissions";

/** One export holds at most this many submissions, or about this much field data; `nextBefore` continues. */
export const CSV_EXPORT_LIMITS = { maxRows: 5_000, maxFieldBytes: 10 * 1024 * 1024, pageSize: 500 } as const;

const SYSTEM_COLUMNS = ["id", "submittedAt", "ip"] as const;

function cell(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return escapeCsvField(text, value);
}

/**
 * Submissions as CSV (RFC 4180, CRLF rows): `id, submittedAt, ip`, then one column per field name
 * seen, in the order first seen (a field named like a system column is headed `fields.<name>`).
 * Every cell and header is one escaped field with a leading `= + - @`, tab or CR neutralised, since
 * names and values are whatever a visitor typed. Repeated fields and JSON values are written as JSON.
 */
export function formSubmissionsCsv(submissions: readonly FormSubmission[]): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const submission of submissions) {
    for (const name of Object.keys(submission.fields)) {
      if (!seen.has(name)) {
        seen.add(name);
        names.push(name);
      }
    }
  }
  const header = [...SYSTEM_COLUMNS, ...names.map((name) => ((SYSTEM_COLUMNS as readonly string[]).includes(name) ? `fields.${name}` : name))];
  const lines = [header.map((name) => cell(name)).join(",")];
  for (const submission of submissions) {
    const row = [submission.id, submission.submittedAt, submission.ip, ...names.map((name) => (Object.hasOwn(submission.fields, name) ? submission.fields[name] : null))];
    lines.push(row.map(cell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * The CSV export of an automation's submissions, newest first, with the listing's `search` and
 * `before`. Bounded (CSV_EXPORT_LIMITS): when more remain, `nextBefore` names the cursor to export on.
 */
export async function exportFormSubmissionsCsv(options: { store: RecordStore; automationId: string; query: unknown }): Promise<{ csv: string; nextBefore: string | null }> {
  const { search, before } = parseFormSubmissionsQuery(options.query);
  const submissions: FormSubmission[] = [];
  let cursor = before;
  let fieldBytes = 0;
  let more = true;
  while (more && submissions.length < CSV_EXPORT_LIMITS.maxRows && fieldBytes < CSV_EXPORT_LIMITS.maxFieldBytes) {
    const page = await findFormSubmissionRecords({ store: options.store, automationId: options.automationId, search, before: cursor, limit: CSV_EXPORT_LIMITS.pageSize });
    more = page.length === CSV_EXPORT_LIMITS.pageSize;
    for (const record of page) {
      if (submissions.length >= CSV_EXPORT_LIMITS.maxRows || fieldBytes >= CSV_EXPORT_LIMITS.maxFieldBytes) {
        more = true;
        break;
      }
      submissions.push(presentFormSubmission(record));
      fieldBytes += typeof record[SEARCH_TEXT_FIELD] === "string" ? (record[SEARCH_TEXT_FIELD] as string).length : 0;
      cursor = record.id;
    }
  }
  const complete = !more;
  return { csv: formSubmissionsCsv(submissions), nextBefore: complete || submissions.length === 0 ? null : submissions[submissions.length - 1]!.id };
}
