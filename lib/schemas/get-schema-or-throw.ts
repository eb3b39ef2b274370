import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";
import { toStoredSchema, type StoredSchema } from "./stored-schema";
import { SCHEMA_NAME_PATTERN } from "./schema-definition";

export interface GetSchemaOptions {
  projectId: string;
  /** The schema's name (names are what URLs and relations use). */
  name: string;
}

/** One schema of the project by name, or AppError("not_found"). */
export async function getSchemaOrThrow(options: GetSchemaOptions): Promise<StoredSchema> {
  // A name that cannot exist is not worth a query (and a NUL byte would make the driver fail).
  if (!SCHEMA_NAME_PATTERN.test(options.name)) throw new AppError("not_found", "no schema with that name in this project");
  const db = await getPlatformDb();
  const [row] = await db
    .select()
    .from(schemaDefinitions)
    .where(and(eq(schemaDefinitions.projectId, options.projectId), eq(schemaDefinitions.name, options.name)))
    .limit(1);
  if (!row) throw new AppError("not_found", `no schema named "${options.name}" in this project`);
  return toStoredSchema(row);
}
