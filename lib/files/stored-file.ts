import type { StoredRecord } from "@/lib/records/record-store";

/** Platform collections in the customer's database (a leading "_" never collides with a schema). */
export const FILES_COLLECTION = "_files";
export const FILE_CHUNKS_COLLECTION = "_file_chunks";

/**
 * An uploaded file's description, as `_files` holds it. The bytes live in `_file_chunks`, one
 * document per chunk (`{ id: "<fileId>-<index>", fileId, index, data: base64 }`), written before
 * this document: a file whose description exists is complete.
 */
export interface StoredFile {
  /** `fil_...` */
  id: string;
  filename: string;
  /** As the upload declared it (checked against the field's `accept`). */
  contentType: string;
  size: number;
  chunks: number;
  /** The schema and file field it was uploaded for; a record can only point at files of its own field. */
  schema: string | null;
  field: string | null;
  /**
   * The record a file uploaded into a component or dynamic-zone entry belongs to (`field` is then
   * the path without list positions, `blocks.image`); null for top-level uploads. Only that record
   * may hold it, so it can be deleted as soon as that record lets go of it.
   */
  record: string | null;
  createdAt: string;
}

export function chunkId(fileId: string, index: number): string {
  return `${fileId}-${index}`;
}

export function toStoredFile(record: StoredRecord): StoredFile {
  return {
    id: record.id,
    filename: String(record.filename ?? "file"),
    contentType: String(record.contentType ?? "application/octet-stream"),
    size: Number(record.size ?? 0),
    chunks: Number(record.chunks ?? 0),
    schema: typeof record.schema === "string" ? record.schema : null,
    field: typeof record.field === "string" ? record.field : null,
    record: typeof record.record === "string" ? record.record : null,
    createdAt: record.createdAt,
  };
}
