import { and, asc, eq } from "drizzle-orm";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";
import type { SchemaKind } from "./schema-definition";
import { toStoredSchema, type StoredSchema } from "./stored-schema";

export interface ListSchemasOptions {
  projectId: string;
  /** Only schemas of this kind. */
  kind?: SchemaKind;
}

/** The project's schema definitions, by name. */
export async function listSchemas(options: ListSchemasOptions): Promise<StoredSchema[]> {
  const db = await getPlatformDb();
  const byProject = eq(schemaDefinitions.projectId, options.projectId);
  const rows = await db
    .select()
    .from(schemaDefinitions)
    .where(options.kind ? and(byProject, eq(schemaDefinitions.kind, options.kind)) : byProject)
    .orderBy(asc(schemaDefinitions.name));
  return rows.map(toStoredSchema);
}
