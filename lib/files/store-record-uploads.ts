import { AppError, validationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { deleteFilesQuietly } from "./delete-files";
import { storeFile } from "./store-file";

/** A file sent for a file field of the schema (read from a request by read-record-request.ts). */
export interface RecordUpload {
  /**
   * The value path of its file field: a top-level field's name (`cover`), or a path into a
   * component or dynamic-zone entry present in the values (`address.photo`, `blocks.2.image`).
   */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface PlannedRecordUploads {
  /** The values with each upload's file id in its field. */
  input: unknown;
  /** The file id of each upload, in the uploads' order. */
  fileIds: string[];
}

/** Whether an upload goes into a component or dynamic-zone entry rather than a top-level field. */
export function isNestedUpload(upload: Pick<RecordUpload, "field">): boolean {
  return upload.field.includes(".");
}

/** A nested upload's path without its list positions (`blocks.2.image` → `blocks.image`; field names never start with a digit). */
export function uploadKey(path: string): string {
  return path
    .split(".")
    .filter((segment) => !/^\d+$/.test(segment))
    .join(".");
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A copy of `values` with `id` at `path`, every container on the way copied rather than changed.
 * The path was resolved against these values (resolveUploadPath): a container that is missing now
 * is a caller's mistake, answered at the path.
 */
function placeAtPath(values: Record<string, unknown>, path: string, id: string): Record<string, unknown> {
  const place = (container: unknown, segments: readonly string[]): unknown => {
    const [head, ...rest] = segments;
    if (Array.isArray(container) && /^\d+$/.test(head!) && Number(head) < container.length) {
      const copy = [...container];
      copy[Number(head)] = rest.length === 0 ? id : place(copy[Number(head)], rest);
      return copy;
    }
    if (isObject(container) && head !== "__proto__") {
      if (rest.length > 0 && !Object.hasOwn(container, head!)) throw validationError(`${path}: has no item to hold it`, [{ path, message: "has no item to hold it" }]);
      return { ...container, [head!]: rest.length === 0 ? id : place(container[head!], rest) };
    }
    throw validationError(`${path}: has no item to hold it`, [{ path, message: "has no item to hold it" }]);
  };
  return place(values, path.split(".")) as Record<string, unknown>;
}

/**
 * Gives each upload its file id and puts the id at the upload's path in the values (a top-level
 * field, or inside a component or dynamic-zone entry), so that the values can be validated (and
 * checked) before anything is stored. Pure: nothing is stored.
 */
export function planRecordUploads(values: unknown, uploads: readonly RecordUpload[]): PlannedRecordUploads {
  const fileIds = uploads.map(() => newId("file"));
  if (uploads.length === 0 || !isObject(values)) return { input: values, fileIds };
  const topLevel = uploads.flatMap((upload, index): [string, unknown][] => (isNestedUpload(upload) ? [] : [[upload.field, fileIds[index]]]));
  let input: Record<string, unknown> = Object.fromEntries([...Object.entries(values), ...topLevel]);
  uploads.forEach((upload, index) => {
    if (isNestedUpload(upload)) input = placeAtPath(input, upload.field, fileIds[index]!);
  });
  return { input, fileIds };
}

export interface StoreRecordUploadsOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  uploads: readonly RecordUpload[];
  /** planRecordUploads' ids, one per upload. */
  fileIds: readonly string[];
  /** The record written: uploads into components and dynamic-zone entries belong to it (required when there are any). */
  recordId?: string;
  signal?: AbortSignal;
}

/**
 * Stores a record write's uploads under their planned ids, each marked as uploaded for its field of
 * the schema; an upload into a component or dynamic-zone entry is marked with its path without list
 * positions and with its record. A failure while storing deletes what was stored before the error
 * is rethrown.
 */
export async function storeRecordUploads(options: StoreRecordUploadsOptions): Promise<void> {
  const { store, schema, uploads, fileIds, recordId, signal } = options;
  if (recordId === undefined && uploads.some(isNestedUpload)) throw new AppError("internal", "uploads into components need the id of their record");
  const stored: string[] = [];
  try {
    for (const [index, upload] of uploads.entries()) {
      const id = fileIds[index]!;
      const mark = isNestedUpload(upload) ? { field: uploadKey(upload.field), record: recordId } : { field: upload.field };
      await storeFile({ store, id, filename: upload.filename, contentType: upload.contentType, data: upload.data, schema: schema.name, ...mark, signal });
      stored.push(id);
    }
  } catch (error) {
    await deleteFilesQuietly(store, stored);
    throw error;
  }
}
