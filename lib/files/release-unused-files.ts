import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { deleteFiles } from "./delete-files";
import { FILES_COLLECTION, toStoredFile } from "./stored-file";

export interface ReleaseUnusedFilesOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  /** The record's top-level values before the write (or the deleted record). */
  before: Record<string, unknown>;
  /** The record's values after the write; absent when the record was deleted. */
  after?: Record<string, unknown>;
}

/**
 * After a record write, deletes the files its file fields no longer point at — when they were
 * uploaded for that field and no other record of the schema still points at them. Never throws: the
 * write itself succeeded, so a failed cleanup is logged (the file stays, unreferenced).
 */
export async function releaseUnusedFiles(options: ReleaseUnusedFilesOptions): Promise<number> {
  const { store, schema } = options;
  const candidates: { field: string; id: string }[] = [];
  for (const field of effectiveFields(schema)) {
    if (field.type !== "file") continue;
    const before = options.before[field.name];
    if (typeof before === "string" && before !== "" && options.after?.[field.name] !== before) candidates.push({ field: field.name, id: before });
  }
  if (candidates.length === 0) return 0;
  try {
    const files = new Map(
      (
        await store.findByIds(
          FILES_COLLECTION,
          candidates.map((candidate) => candidate.id),
        )
      ).map((record) => [record.id, toStoredFile(record)]),
    );
    const unused: string[] = [];
    for (const candidate of candidates) {
      const file = files.get(candidate.id);
      if (!file || file.schema !== schema.name || file.field !== candidate.field) continue;
      const users = await store.count(schema.name, { where: [{ field: candidate.field, op: "eq", value: candidate.id }] });
      if (users === 0) unused.push(candidate.id);
    }
    return unused.length === 0 ? 0 : await deleteFiles({ store, ids: unused });
  } catch (error) {
    log.error("could not delete files a record no longer uses", { schema: schema.name, error: error instanceof Error ? error.message : String(error) });
    return 0;
  }
}
