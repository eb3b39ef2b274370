import busboy from "busboy";
import { AppError, type ErrorIssue } from "@/lib/errors";
import { normalizeValue, textProblem } from "@/lib/records/normalize-document";
import { FORM_LIMITS, type FormFields } from "./form-submission";
import { readRequestBody } from "@/lib/http/read-request-body";

/** How the submission was encoded: JSON from scripts, the other two from plain HTML forms (or FormData). */
export type FormEncoding = "json" | "urlencoded" | "multipart";

const MEDIA_TYPES: Readonly<Record<string, FormEncoding>> = {
  "application/json": "json",
  "application/x-www-form-urlencoded": "urlencoded",
  "multipart/form-data": "multipart",
};

const MAX_ISSUES = 20;

type Entry = [name: string, value: unknown];

/** The encoding the Content-Type names, or 415 for anything else (checked before the body is read). */
export function formEncodingOf(contentType: string | null): FormEncoding {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const encoding = MEDIA_TYPES[mediaType];
  if (!encoding) throw new AppError("unsupported_media_type", "send application/json, application/x-www-form-urlencoded or multipart/form-data");
  return encoding;
}

function badRequest(message: string, issues?: ErrorIssue[]): AppError {
  return new AppError("bad_request", message, issues ? { issues } : {});
}

function jsonEntries(body: Buffer): Entry[] {
  if (body.byteLength === 0) return [];
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw badRequest("request body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw badRequest("request body must be a JSON object");
  return Object.entries(value);
}

function urlencodedEntries(body: Buffer): Entry[] {
  return [...new URLSearchParams(body.toString("utf8"))];
}

/**
 * Fields only. A file part that carries a file (a file name or any content) is refused with 415:
 * forms store text, and dropping a visitor's upload without a word would lose it. An empty file
 * input (no file chosen: empty name, no bytes), which browsers send for every such input, is skipped.
 */
function multipartEntries(body: Buffer, contentType: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    let fileSent = false;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        // Nothing is truncated silently: the whole body is already within the limit.
        limits: { fieldSize: FORM_LIMITS.maxBodyBytes, fieldNameSize: FORM_LIMITS.maxBodyBytes, headerPairs: 20 },
      });
    } catch {
      reject(badRequest("malformed multipart body"));
      return;
    }
    parser.on("field", (name, value) => entries.push([name, value]));
    parser.on("file", (name, stream, info) => {
      if (info.filename) fileSent = true;
      stream.on("data", (chunk: Buffer) => {
        if (chunk.byteLength > 0) fileSent = true;
      });
      // Counted as a part, so thousands of empty file inputs cannot pass the field limit.
      entries.push(["", null]);
    });
    parser.on("error", () => reject(badRequest("malformed multipart body")));
    parser.on("close", () => {
      if (fileSent) reject(new AppError("unsupported_media_type", "forms accept fields only, not file uploads"));
      else resolve(entries);
    });
    parser.end(body);
  });
}

/** Why a field name cannot be used (the customer database's key rules, and a bounded length). */
function nameProblem(name: string): string | undefined {
  if (name.length > FORM_LIMITS.maxFieldNameLength) return `field names are at most ${FORM_LIMITS.maxFieldNameLength} characters`;
  if (name.startsWith("$")) return 'field names cannot start with "$"';
  if (name.includes(".")) return 'field names cannot contain "."';
  if (name === "__proto__") return "this field name is reserved";
  const text = textProblem(name);
  return text ? `field names cannot contain ${text}` : undefined;
}

/** Repeated names become arrays (in the order sent); names and values are checked; nothing is coerced. */
function collectFields(entries: Entry[], encoding: FormEncoding): FormFields {
  if (entries.length > FORM_LIMITS.maxFields) {
    throw badRequest("too many fields", [{ path: "fields", message: `a submission has at most ${FORM_LIMITS.maxFields} fields` }]);
  }
  const issues: ErrorIssue[] = [];
  const fields = new Map<string, unknown>();
  for (const [name, raw] of entries) {
    if (issues.length >= MAX_ISSUES) break;
    // A value without a name cannot be addressed by a flow (and HTML forms send none).
    if (!name) continue;
    const path = `fields.${name.slice(0, FORM_LIMITS.maxFieldNameLength)}`;
    const problem = nameProblem(name);
    if (problem) {
      issues.push({ path, message: problem });
      continue;
    }
    // JSON values are stored as sent, so they must be storable at every depth; form values are text.
    const value = normalizeValue(raw, path, issues, 1);
    const existing = fields.get(name);
    if (existing === undefined || encoding === "json") fields.set(name, value);
    else fields.set(name, Array.isArray(existing) ? [...(existing as unknown[]), value] : [existing, value]);
  }
  if (issues.length > 0) throw badRequest("invalid submission", issues.slice(0, MAX_ISSUES));
  return Object.fromEntries(fields);
}

/**
 * The submitted fields of a form post: the Content-Type decides the parser (415 for any other),
 * the body is at most 100 KB counted while streaming (413), and at most 200 fields with names of at
 * most 100 characters (400 with issues). Malformed JSON, or JSON that is not an object: 400.
 */
export async function readFormFields(request: Request): Promise<{ fields: FormFields; encoding: FormEncoding }> {
  const contentType = request.headers.get("content-type");
  const encoding = formEncodingOf(contentType);
  const body = await readRequestBody(request, FORM_LIMITS.maxBodyBytes);
  const entries = encoding === "json" ? jsonEntries(body) : encoding === "urlencoded" ? urlencodedEntries(body) : await multipartEntries(body, contentType!);
  return { fields: collectFields(entries, encoding), encoding };
}
