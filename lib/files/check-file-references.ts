import { AppError } from "@/lib/errors";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { findFileReferenceIssues } from "./find-file-reference-issues";

export interface CheckFileReferencesOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  /** Validated record values (top-level file fields hold a file id or null). */
  values: Record<string, unknown>;
  /** Ids of files uploaded with this very request (stored a moment later; not looked up). */
  uploadedIds?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/**
 * Checks that the file ids a write names in top-level file fields are stored files uploaded for
 * that same field of that schema (422 naming the field and the id otherwise), with one store query
 * whatever the number of fields (see find-file-reference-issues.ts).
 */
export async function checkFileReferences(options: CheckFileReferencesOptions): Promise<void> {
  const [issues = []] = await findFileReferenceIssues({ ...options, records: [options.values] });
  const first = issues[0];
  if (first) throw new AppError("validation_failed", `${first.path}: ${first.message}`, { issues, field: first.path });
}
