/**
 * Upload limits. A file field's own `maxBytes` can only narrow the platform limit: files live in
 * the customer's database, so the platform keeps them small enough for every backend and for
 * one request's memory.
 */
export const FILE_LIMITS = {
  /** The largest upload a file field accepts unless its `maxBytes` is lower (5 MiB). */
  maxFileBytes: 5 * 1024 * 1024,
  /**
   * Stored files are split into chunks of this many bytes (≈ 1.4 MB as base64): no document comes
   * near MongoDB's 16 MB document limit, and a download reads one chunk at a time.
   */
  chunkBytes: 1024 * 1024,
  /** All text parts of one multipart request together (record values, like a JSON body). */
  textBytes: 1_000_000,
  /** Files for fields inside components and dynamic-zone entries in one request (top-level fields take one each). */
  nestedFiles: 20,
  /** All files for fields inside components and dynamic-zone entries of one request together (20 MiB). */
  nestedFileBytes: 20 * 1024 * 1024,
  /** Parts in one multipart request. */
  maxParts: 500,
  /** One part's header block. */
  maxPartHeaderBytes: 8 * 1024,
  /** Boundaries and part headers on top of the parts' contents. */
  framingAllowanceBytes: 256 * 1024,
  filenameLength: 255,
  contentTypeLength: 255,
} as const;

/** The effective limit of a file field: its maxBytes, never above the platform limit. */
export function fileFieldLimit(field: { maxBytes?: number }, platformLimit: number = FILE_LIMITS.maxFileBytes): number {
  return field.maxBytes === undefined ? platformLimit : Math.min(field.maxBytes, platformLimit);
}
