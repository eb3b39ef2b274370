import { AppError, isAppError, validationError, type ErrorIssue } from "@/lib/errors";
import { readJson } from "@/lib/http/read-json";
import { effectiveFields, type FieldDefinition, type FieldOfType, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { componentsByName } from "./collect-nested-file-values";
import { FILE_LIMITS, fileFieldLimit } from "./file-limits";
import { multipartBoundary, parseMultipart, type MultipartPart, type MultipartPartHead, type PartPlan } from "./multipart/parse-multipart";
import { normalizeContentType, sanitizeFilename, uploadAccepted } from "./upload-metadata";
import { resolveUploadPath } from "./resolve-upload-path";
import type { RecordUpload } from "./store-record-uploads";

export interface RecordRequestInput {
  /** The record values as sent (validated later by the records service). */
  values: unknown;
  uploads: RecordUpload[];
}

export interface ReadRecordRequestOptions {
  schema: SchemaDefinition;
  /** The project's schemas: the components whose file fields take nested uploads. */
  schemas?: readonly SchemaDefinition[];
  /** The platform's per-file limit (a field's maxBytes can only lower it). */
  maxFileBytes?: number;
}

/** The multipart part that holds the record values as JSON. */
export const VALUES_PART = "data";

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a record write (create or update) from a request:
 * - `application/json` (or no content type): the body is the record values.
 * - `multipart/form-data`: a part named `data` holding JSON (typed application/json, or untyped when
 *   the schema has no field named `data`) and/or plain form fields hold the values (text; repeated
 *   names become lists); parts named after top-level file fields carry files, and so do parts
 *   named by the value path of a file field inside a component or dynamic-zone entry present in the
 *   values (`address.photo`, `blocks.2.image`: the paths validation issues use), at most
 *   FILE_LIMITS.nestedFiles of them. An empty file input (no filename, no bytes) is ignored. Each
 *   file is limited while streaming (413), its content type is recorded and checked against the
 *   field's `accept` (422); a path that names no file field of an item present is a 422 at the path.
 * Anything else is 415.
 */
export async function readRecordRequest(request: Request, options: ReadRecordRequestOptions): Promise<RecordRequestInput> {
  const contentType = request.headers.get("content-type")?.trim() ?? "";
  if (contentType === "" || JSON_TYPE.test(contentType)) return { values: await readJson(request), uploads: [] };
  if (!MULTIPART_TYPE.test(contentType)) {
    throw new AppError("unsupported_media_type", "send the record as application/json or multipart/form-data");
  }
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw new AppError("bad_request", "the multipart content type names no valid boundary");
  return readMultipartRecord(request, boundary, options);
}

/** A part named like a path (`blocks.2.image`) addresses a field inside a component or dynamic-zone entry. */
const isPathName = (name: string) => name.includes(".");

async function readMultipartRecord(request: Request, boundary: string, options: ReadRecordRequestOptions): Promise<RecordRequestInput> {
  const { schema } = options;
  const fields = effectiveFields(schema);
  const fileFields = new Map(fields.filter((field): field is FieldOfType<"file"> => field.type === "file").map((field) => [field.name, field]));
  const components = componentsByName(options.schemas ?? []);
  const hasValuesField = fields.some((field) => field.name === VALUES_PART);
  const limitOf = (field: FieldOfType<"file">) => fileFieldLimit(field, options.maxFileBytes);
  const nestedAllowance = hasNestedFileFields(schema, components) ? FILE_LIMITS.nestedFileBytes : 0;

  const maxTotalBytes = FILE_LIMITS.textBytes + FILE_LIMITS.framingAllowanceBytes + [...fileFields.values()].reduce((sum, field) => sum + limitOf(field), 0) + nestedAllowance;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxTotalBytes) throw new AppError("payload_too_large", `request body is larger than ${maxTotalBytes} bytes`);

  const isValuesPart = (head: MultipartPartHead) => head.name === VALUES_PART && (JSON_TYPE.test(head.contentType ?? "") || (!hasValuesField && head.filename === null));
  const filesSeen = new Set<string>();
  let nestedSeen = 0;
  const planPart = (head: MultipartPartHead): PartPlan => {
    if (isValuesPart(head)) return { kind: "text" };
    if (!isFilePart(head, fileFields)) return { kind: "text" };
    if (filesSeen.has(head.name)) throw validationError(`file field "${head.name}" is sent more than once`, [{ path: head.name, message: "takes one file" }]);
    if (isPathName(head.name)) {
      // The values may come after the file: the schema alone bounds it here, the values decide later.
      const resolved = resolveUploadPath({ schema, components, path: head.name });
      if (!resolved.ok) throw validationError(`${head.name}: ${resolved.message}`, [{ path: head.name, message: resolved.message }]);
      if (++nestedSeen > FILE_LIMITS.nestedFiles) {
        throw new AppError("payload_too_large", `a request holds at most ${FILE_LIMITS.nestedFiles} files for fields inside components and dynamic zones`);
      }
      filesSeen.add(head.name);
      return { kind: "file", maxBytes: Math.max(...resolved.fields.map(limitOf)) };
    }
    const field = fileFields.get(head.name);
    if (!field) {
      throw validationError(`"${head.name}" is not a file field of ${schema.name}`, [{ path: head.name, message: `is not a file field of ${schema.name}` }]);
    }
    filesSeen.add(head.name);
    return { kind: "file", maxBytes: limitOf(field) };
  };

  const parts = await parseMultipart(request.body, boundary, {
    planPart,
    maxTotalBytes,
    maxTextBytes: FILE_LIMITS.textBytes,
    maxParts: FILE_LIMITS.maxParts,
    maxHeaderBytes: FILE_LIMITS.maxPartHeaderBytes,
  });
  return assembleRecordInput(parts, { schema, components, fileFields, isValuesPart, limitOf });
}

/** Whether any component the schema nests (at any depth) has a file field: only then do nested uploads get room in the body. */
function hasNestedFileFields(schema: SchemaDefinition, components: ReadonlyMap<string, SchemaDefinition>): boolean {
  const seen = new Set<string>();
  const visit = (fields: readonly FieldDefinition[], nested: boolean): boolean =>
    fields.some((field) => {
      if (field.type === "file") return nested;
      const names = field.type === "component" ? [field.component] : field.type === "dynamic_zone" ? field.components : [];
      return names.some((name) => {
        if (seen.has(name)) return false;
        seen.add(name);
        const component = components.get(name);
        return component !== undefined && visit(component.fields, true);
      });
    });
  return visit(effectiveFields(schema), false);
}

/**
 * A part carries a file when it has a filename, or when it is named after a file field (or a path
 * to one) and has a Content-Type (some clients leave the filename out; browsers never type their
 * text fields).
 */
function isFilePart(head: MultipartPartHead, fileFields: ReadonlyMap<string, unknown>): boolean {
  return head.filename !== null || ((fileFields.has(head.name) || isPathName(head.name)) && head.contentType !== null);
}

function decodeText(part: MultipartPart): string {
  try {
    return utf8.decode(part.data);
  } catch {
    throw new AppError("bad_request", `form field "${part.name}" is not UTF-8 text`);
  }
}

interface AssemblyContext {
  schema: SchemaDefinition;
  components: ReadonlyMap<string, SchemaDefinition>;
  fileFields: ReadonlyMap<string, FieldOfType<"file">>;
  isValuesPart: (head: MultipartPartHead) => boolean;
  limitOf: (field: FieldOfType<"file">) => number;
}

function assembleRecordInput(parts: MultipartPart[], context: AssemblyContext): RecordRequestInput {
  const issues: ErrorIssue[] = [];
  let jsonValues: Record<string, unknown> | null = null;
  const formValues = new Map<string, string[]>();
  const uploads: RecordUpload[] = [];
  const nestedParts: MultipartPart[] = [];

  for (const part of parts) {
    if (context.isValuesPart(part)) {
      if (jsonValues) throw new AppError("bad_request", `the "${VALUES_PART}" part is sent more than once`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(decodeText(part));
      } catch (error) {
        if (isAppError(error)) throw error;
        throw new AppError("bad_request", `the "${VALUES_PART}" part is not valid JSON`);
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw validationError(`the "${VALUES_PART}" part must be a JSON object`, [{ path: "", message: "must be a JSON object" }]);
      }
      jsonValues = parsed as Record<string, unknown>;
    } else if (!isFilePart(part, context.fileFields)) {
      const list = formValues.get(part.name) ?? [];
      list.push(decodeText(part));
      formValues.set(part.name, list);
    } else if (!part.filename && part.data.length === 0) {
      // A file input left empty: browsers send it with an empty filename and no bytes.
      continue;
    } else if (isPathName(part.name)) {
      // Checked once the values are read: the entry it goes into decides its field.
      nestedParts.push(part);
    } else {
      const upload = checkedUpload(part, context.fileFields.get(part.name)!, issues);
      if (upload) uploads.push(upload);
    }
  }

  // Entries become own properties (Object.fromEntries), so a field named __proto__ is just refused by validation.
  const entries: [string, unknown][] = Object.entries(jsonValues ?? {});
  const given = new Set(entries.map(([key]) => key));
  for (const [name, values] of formValues) {
    if (given.has(name)) issues.push({ path: name, message: `is given twice (in "${VALUES_PART}" and as a form field)` });
    else entries.push([name, values.length === 1 ? values[0] : values]);
    given.add(name);
  }
  for (const upload of uploads) {
    if (given.has(upload.field)) issues.push({ path: upload.field, message: "is given twice (as a file and as a value)" });
  }
  const values = Object.fromEntries(entries);

  let nestedBytes = 0;
  for (const part of nestedParts) {
    const field = nestedFileField(part, values, context, issues);
    if (!field) continue;
    // The schema allowed the largest candidate while streaming; the entry sent decides the field.
    const limit = context.limitOf(field);
    if (part.data.length > limit) {
      throw new AppError("payload_too_large", `file "${part.name}" is larger than ${limit} bytes`, { issues: [{ path: part.name, message: `must be at most ${limit} bytes` }] });
    }
    nestedBytes += part.data.length;
    if (nestedBytes > FILE_LIMITS.nestedFileBytes) {
      throw new AppError("payload_too_large", `the files for fields inside components and dynamic zones are larger than ${FILE_LIMITS.nestedFileBytes} bytes together`);
    }
    const upload = checkedUpload(part, field, issues);
    if (upload) uploads.push(upload);
  }
  if (issues.length > 0) {
    const first = issues[0]!;
    throw validationError(`invalid ${context.schema.name} record: ${first.path}: ${first.message}`, issues);
  }
  return { values, uploads };
}

/** A file part as an upload of its field: its content type recorded and accepted by the field, or undefined with an issue at its name. */
function checkedUpload(part: MultipartPart, field: FieldOfType<"file">, issues: ErrorIssue[]): RecordUpload | undefined {
  const contentType = normalizeContentType(part.contentType);
  if (contentType === null) {
    issues.push({ path: part.name, message: "has a content type that is not a valid media type" });
    return undefined;
  }
  const upload = { field: part.name, filename: sanitizeFilename(part.filename), contentType, data: part.data };
  if (!uploadAccepted(field.accept, upload)) {
    issues.push({ path: part.name, message: `must be one of the accepted types ${field.accept!.join(", ")} (got ${contentType}, ${JSON.stringify(upload.filename)})` });
    return undefined;
  }
  return upload;
}

/** The file field a nested part addresses in the values sent, or undefined with an issue at its path. */
function nestedFileField(part: MultipartPart, values: Record<string, unknown>, context: AssemblyContext, issues: ErrorIssue[]): FieldOfType<"file"> | undefined {
  const resolved = resolveUploadPath({ schema: context.schema, components: context.components, path: part.name, values });
  if (!resolved.ok) {
    issues.push({ path: part.name, message: resolved.message });
    return undefined;
  }
  const held = valueAtPath(values, part.name);
  if (held !== undefined && held !== null && held !== "") {
    issues.push({ path: part.name, message: "is given twice (as a file and as a value)" });
    return undefined;
  }
  return resolved.fields[0];
}

/** The value at a resolved path (every container on the way exists: resolveUploadPath checked it). */
function valueAtPath(values: Record<string, unknown>, path: string): unknown {
  let current: unknown = values;
  for (const segment of path.split(".")) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (typeof current === "object" && current !== null && Object.hasOwn(current, segment)) current = (current as Record<string, unknown>)[segment];
    else return undefined;
  }
  return current;
}
