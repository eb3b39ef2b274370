import { AppError, isAppError } from "@/lib/errors";
import { getProjectOrThrow, type ProjectRow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { listSchemas } from "@/lib/schemas/list-schemas";
import type { StoredSchema } from "@/lib/schemas/stored-schema";

/** What every end-user service works on: one auth schema of one project and its customer database. */
export interface AuthSchemaContext {
  project: ProjectRow;
  /** The auth schema (kind "auth"). */
  schema: StoredSchema;
  /** All of the project's schemas (components and relation targets are found here). */
  schemas: readonly StoredSchema[];
  /** The project's customer database; accounts live in the collection named like the schema. */
  store: RecordStore;
}

/** The one answer for an unknown project, an unknown schema and a schema that is not an auth schema. */
export function authSchemaNotFound(): AppError {
  return new AppError("not_found", "auth schema not found");
}

/**
 * Loads the context for `projectId` + auth schema `schemaName`, or throws the same
 * AppError("not_found") whether the project, the schema or its kind is what is missing.
 */
export async function getAuthSchemaContextOrThrow(options: { projectId: string; schemaName: string }): Promise<AuthSchemaContext> {
  const project = await getProjectOrThrow({ projectId: options.projectId }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") throw authSchemaNotFound();
    throw error;
  });
  const schemas = await listSchemas({ projectId: project.id });
  const schema = schemas.find((candidate) => candidate.name === options.schemaName);
  if (!schema || schema.kind !== "auth") throw authSchemaNotFound();
  return { project, schema, schemas, store: await getProjectRecordStore({ project }) };
}
