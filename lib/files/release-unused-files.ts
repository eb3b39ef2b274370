import { log } from "@/lib/log";
import { isValidRecordId } from "@/lib/records/record-names";
import type { RecordStore } from "@/lib/records/record-store";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { collectNestedFileValues, componentsByName } from "./collect-nested-file-values";
import { deleteFiles } from "./delete-files";
import { FILES_COLLECTION, toStoredFile } from "./stored-file";

export interface ReleaseUnusedFilesOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  /** The record's top-level values before the write (or the deleted record). */
  before: Record<string, unknown>;
  /** The record's values after the write; absent when the record was deleted. */
  after?: Record<string, unknown>;
  /** The project's schemas: given, files uploaded into the record's components and dynamic-zone entries are released too. */
  components?: readonly SchemaDefinition[];
}

/**
 * After a record write, deletes the files its file fields no longer point at — when they were
 * uploaded for that field and no other record of the schema still points at them. A file uploaded
 * into a component or dynamic-zone entry belongs to its record alone (no other record may hold it),
 * so it goes as soon as the record holds it nowhere any more. Never throws: the write itself
 * succeeded, so a failed cleanup is logged (the file stays, unreferenced).
 */
export async function releaseUnusedFiles(options: ReleaseUnusedFilesOptions): Promise<number> {
  const { store, schema } = options;
  const candidates: { field: string; id: string }[] = [];
  for (const field of effectiveFields(schema)) {
    if (field.type !== "file") continue;
    const before = options.before[field.name];
    if (typeof before === "string" && before !== "" && options.after?.[field.name] !== before) candidates.push({ field: field.name, id: before });
  }
  const nested = options.components ? nestedCandidates(options, options.components) : [];
  if (candidates.length === 0 && nested.length === 0) return 0;
  try {
    const files = new Map(
      (await store.findByIds(FILES_COLLECTION, [...new Set([...candidates.map((candidate) => candidate.id), ...nested])])).map((record) => [record.id, toStoredFile(record)]),
    );
    const unused: string[] = [];
    const owner = options.before.id;
    for (const id of nested) {
      const file = files.get(id);
      if (file?.record && file.record === owner && file.schema === schema.name) unused.push(id);
    }
    for (const candidate of candidates) {
      const file = files.get(candidate.id);
      if (!file || file.schema !== schema.name || file.field !== candidate.field) continue;
      const users = await store.count(schema.name, { where: [{ field: candidate.field, op: "eq", value: candidate.id }] });
      if (users === 0 && !unused.includes(candidate.id)) unused.push(candidate.id);
    }
    return unused.length === 0 ? 0 : await deleteFiles({ store, ids: unused });
  } catch (error) {
    log.error("could not delete files a record no longer uses", { schema: schema.name, error: error instanceof Error ? error.message : String(error) });
    return 0;
  }
}

/** The ids the record held inside its components and dynamic-zone entries before the write and nowhere there after it. */
function nestedCandidates(options: ReleaseUnusedFilesOptions, schemas: readonly SchemaDefinition[]): string[] {
  const components = componentsByName(schemas);
  const kept = new Set(options.after ? collectNestedFileValues(options.schema, components, options.after).map((value) => value.id) : []);
  return [...new Set(collectNestedFileValues(options.schema, components, options.before).map((value) => value.id))].filter((id) => !kept.has(id) && isValidRecordId(id));
}
