import { eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { isUniqueViolation } from "@/lib/platform-db/is-unique-violation";
import { schemaDefinitions } from "@/lib/platform-db/schema";
import type { RecordStore } from "@/lib/records/record-store";
import { createFieldIndexes, ensureSearchIndexQuietly } from "./apply-field-indexes";
import { createUniqueIndexes, dropUniqueIndexesQuietly } from "./apply-unique-indexes";
import { checkSchemaFitsProject } from "./check-schema-fits-project";
import { listSchemas } from "./list-schemas";
import { indexedFieldNames, parseSchemaDefinition, uniqueFieldNames } from "./schema-definition";
import { toStoredSchema, type StoredSchema } from "./stored-schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

export interface CreateSchemaOptions {
  projectId: string;
  /** The definition as received (validated here). */
  definition: unknown;
  /** The project's customer database: unique fields get their indexes there. */
  store: RecordStore;
  signal?: AbortSignal;
}

function nameTaken(name: string): AppError {
  return new AppError("conflict", `a schema named "${name}" already exists in this project`, { issues: [{ path: "name", message: "is already used by another schema" }] });
}

/**
 * Saves a new schema definition: checks its shape (422 with paths such as `fields.2.values`), its
 * fit with the project's other schemas (relation targets, components, nesting cycles) and its
 * patterns; a taken name is 409. Then creates a unique index for every unique field (auth schemas:
 * also `email`) and an index for every `indexed` field; data already in the collection with
 * duplicates makes that a 409 naming the field and a duplicate value, and nothing is saved.
 */
export async function createSchema(options: CreateSchemaOptions): Promise<StoredSchema> {
  const definition = parseSchemaDefinition(options.definition);
  const others = await listSchemas({ projectId: options.projectId });
  if (others.some((schema) => schema.name === definition.name)) throw nameTaken(definition.name);
  await checkSchemaFitsProject({ definition, others });

  const db = await getPlatformDb();
  const id = newId("schema");
  let row;
  try {
    [row] = await db.insert(schemaDefinitions).values({ id, projectId: options.projectId, name: definition.name, kind: definition.kind, fields: definition.fields }).returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(definition.name);
    throw error;
  }
  if (!row) throw new AppError("internal", "the schema row was not returned");

  try {
    await createUniqueIndexes(options.store, definition, uniqueFieldNames(definition), options.signal);
    try {
      await createFieldIndexes(options.store, definition.name, indexedFieldNames(definition), options.signal);
    } catch (error) {
      await dropUniqueIndexesQuietly(options.store, definition.name, uniqueFieldNames(definition));
      throw error;
    }
  } catch (error) {
    await db.delete(schemaDefinitions).where(eq(schemaDefinitions.id, id));
    throw error;
  }
  await ensureSearchIndexQuietly(options.store, definition, options.signal);
  await bumpProjectGeneration(options.projectId);
  return toStoredSchema(row);
}
