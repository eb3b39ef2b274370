import { eq } from "drizzle-orm";
import { AppError, type ErrorIssue } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { schemaDefinitions } from "@/lib/platform-db/schema";
import type { RecordStore } from "@/lib/records/record-store";
import { listSchemas } from "./list-schemas";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";

export interface DeleteSchemaOptions {
  projectId: string;
  name: string;
  store: RecordStore;
  /**
   * Must be true to delete a schema that still has records: they are deleted with it. Without
   * it such a delete is refused (409) with a message saying how many records would go.
   */
  confirm?: boolean;
  signal?: AbortSignal;
}

export interface DeleteSchemaResult {
  /** Records deleted with the schema (0 for components and empty schemas). */
  deletedRecords: number;
}

/**
 * Deletes a schema. Refused (409) while other schemas point at it (relation targets, component
 * and dynamic-zone uses, named in the issues), and while it has records unless `confirm` is true.
 * A confirmed delete drops the collection and its records from the customer database first, then
 * the definition; nothing is deleted silently.
 */
export async function deleteSchema(options: DeleteSchemaOptions): Promise<DeleteSchemaResult> {
  const all = await listSchemas({ projectId: options.projectId });
  const schema = all.find((candidate) => candidate.name === options.name);
  if (!schema) throw new AppError("not_found", `no schema named "${options.name}" in this project`);

  const uses: ErrorIssue[] = [];
  for (const other of all) {
    if (other.id === schema.id) continue;
    other.fields.forEach((field, index) => {
      if (field.type === "relation" && field.target === schema.name)
        uses.push({ path: `${other.name}.fields.${index}.target`, message: `relation "${field.name}" of ${other.name} points at ${schema.name}` });
      if (field.type === "component" && field.component === schema.name)
        uses.push({ path: `${other.name}.fields.${index}.component`, message: `field "${field.name}" of ${other.name} uses ${schema.name}` });
      if (field.type === "dynamic_zone" && field.components.includes(schema.name)) {
        uses.push({ path: `${other.name}.fields.${index}.components`, message: `dynamic zone "${field.name}" of ${other.name} allows ${schema.name}` });
      }
    });
  }
  if (uses.length > 0) {
    const names = [...new Set(uses.map((use) => use.path.split(".")[0]))].join(", ");
    throw new AppError("conflict", `schema "${schema.name}" is used by ${names}; change those fields first`, { issues: uses });
  }

  const operation = options.signal ? { signal: options.signal } : {};
  let deletedRecords = 0;
  if (schema.kind !== "component") {
    deletedRecords = await options.store.count(schema.name, operation);
    if (deletedRecords > 0 && options.confirm !== true) {
      const records = deletedRecords === 1 ? "1 record" : `${deletedRecords} records`;
      throw new AppError("conflict", `deleting schema "${schema.name}" would delete its ${records}; confirm to delete them with it`, {
        issues: [{ path: "confirm", message: `must be true to delete ${records}` }],
      });
    }
    await options.store.dropCollection(schema.name, operation);
  }
  const db = await getPlatformDb();
  await db.delete(schemaDefinitions).where(eq(schemaDefinitions.id, schema.id));
  await bumpProjectGeneration(options.projectId);
  return { deletedRecords };
}
