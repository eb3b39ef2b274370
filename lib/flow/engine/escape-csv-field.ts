/**
 * Writes a value as exactly one CSV field (RFC 4180), safe to open in a spreadsheet.
 *
 * - Text that starts like a formula (`=`, `+`, `-`, `@`, or a tab or CR, the OWASP "CSV injection"
 *   list) gets a leading `'`, which spreadsheets read as "this is text". A JSON number is never a
 *   formula (its only possible lead is `-` followed by digits), so `-2` from a number stays a
 *   number; the same characters from text are still neutralised, as the text could be anything.
 * - A field holding `"`, `,`, CR or LF is wrapped in double quotes with inner quotes doubled, so it
 *   cannot end its field or row; other fields stay bare, as they were before escaping existed.
 */

const FORMULA_LEAD = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function escapeCsvField(text: string, value?: unknown): string {
  const neutralised = typeof value !== "number" && FORMULA_LEAD.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(neutralised) ? `"${neutralised.replaceAll('"', '""')}"` : neutralised;
}
