import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";
import type { RecordStore } from "@/lib/records/record-store";
import { createFieldIndexes, dropFieldIndexesQuietly, ensureSearchIndexQuietly } from "./apply-field-indexes";
import { createUniqueIndexes, dropUniqueIndexesQuietly } from "./apply-unique-indexes";
import { checkSchemaFitsProject } from "./check-schema-fits-project";
import { listSchemas } from "./list-schemas";
import { describeSchemaChange, type SchemaChangeEffects } from "./describe-schema-change";
import { parseSchemaDefinition } from "./schema-definition";
import { toStoredSchema, type StoredSchema } from "./stored-schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

export interface UpdateSchemaOptions {
  projectId: string;
  /** The schema's current name; renaming is not supported. */
  name: string;
  /** The whole new definition (PUT semantics): name, kind and the complete field list. */
  definition: unknown;
  store: RecordStore;
  /** Check everything and answer the effects, but change nothing (the dashboard's confirmation step). */
  dryRun?: boolean;
  /** The version the caller edited; a different current version is 409 (someone else saved meanwhile). */
  expectedVersion?: number;
  signal?: AbortSignal;
}

export interface UpdateSchemaResult {
  /** The saved schema (with dryRun: what would be saved, at the current version). */
  schema: StoredSchema;
  effects: SchemaChangeEffects;
}

/**
 * Replaces a schema's definition. The name and kind cannot change (422). The new definition is
 * checked like on create; then unique indexes are created for newly unique fields (duplicates in
 * the data → 409 naming the field and a duplicate value, nothing saved) and dropped for fields no
 * longer unique (or removed); `indexed` fields get their index built before the save and lose it
 * after. Removing a field never deletes data: values stay in the documents,
 * hidden from the API; the answer's `effects` says so. With dryRun nothing changes.
 */
export async function updateSchema(options: UpdateSchemaOptions): Promise<UpdateSchemaResult> {
  const all = await listSchemas({ projectId: options.projectId });
  const current = all.find((schema) => schema.name === options.name);
  if (!current) throw new AppError("not_found", `no schema named "${options.name}" in this project`);
  if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
    throw new AppError("conflict", `schema "${current.name}" was changed meanwhile (now version ${current.version}); reload it and apply your change again`);
  }

  const definition = parseSchemaDefinition(options.definition);
  if (definition.name !== current.name) {
    throw new AppError("validation_failed", "a schema cannot be renamed (its records are stored under its name)", {
      issues: [{ path: "name", message: `must stay "${current.name}"` }],
    });
  }
  if (definition.kind !== current.kind) {
    throw new AppError("validation_failed", "a schema's kind cannot change", { issues: [{ path: "kind", message: `must stay "${current.kind}"` }] });
  }
  const knownPatterns = new Set(current.fields.flatMap((field) => (field.type === "string" && field.pattern !== undefined ? [field.pattern] : [])));
  await checkSchemaFitsProject({ definition, others: all.filter((schema) => schema.id !== current.id), knownPatterns });

  const effects = describeSchemaChange(current, definition);
  if (options.dryRun) return { schema: { ...current, fields: definition.fields }, effects };

  const { store } = options;
  await createUniqueIndexes(store, definition, effects.uniqueIndexesCreated, options.signal);
  try {
    await createFieldIndexes(store, definition.name, effects.fieldIndexesCreated, options.signal);
  } catch (error) {
    await dropUniqueIndexesQuietly(store, definition.name, effects.uniqueIndexesCreated);
    throw error;
  }
  const restore = async () => {
    await dropFieldIndexesQuietly(store, definition.name, effects.fieldIndexesCreated);
    await dropUniqueIndexesQuietly(store, definition.name, effects.uniqueIndexesCreated);
    try {
      await createUniqueIndexes(store, current, effects.uniqueIndexesDropped);
    } catch (error) {
      log.error("could not restore a unique index while undoing a schema change", { schema: current.name, error: error instanceof Error ? error.message : String(error) });
    }
  };
  try {
    for (const field of effects.uniqueIndexesDropped) await store.dropUniqueIndex(definition.name, field, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    await restore();
    throw error;
  }

  const db = await getPlatformDb();
  let saved;
  try {
    [saved] = await db
      .update(schemaDefinitions)
      .set({ fields: definition.fields, version: current.version + 1, updatedAt: new Date() })
      .where(and(eq(schemaDefinitions.id, current.id), eq(schemaDefinitions.version, current.version)))
      .returning();
  } catch (error) {
    await restore();
    throw error;
  }
  if (!saved) {
    await restore();
    throw new AppError("conflict", `schema "${current.name}" was changed meanwhile; reload it and apply your change again`);
  }
  await dropFieldIndexesQuietly(store, definition.name, effects.fieldIndexesDropped);
  await ensureSearchIndexQuietly(store, definition, options.signal);
  await bumpProjectGeneration(options.projectId);
  return { schema: toStoredSchema(saved), effects };
}
