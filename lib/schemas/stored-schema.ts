import type { schemaDefinitions } from "@/lib/platform-db/schema";
import type { FieldDefinition, SchemaDefinition } from "./schema-definition";

/** A saved schema definition as the management API answers it. */
export interface StoredSchema extends SchemaDefinition {
  id: string;
  /** Starts at 1, grows by one on every update (optimistic concurrency). */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type SchemaDefinitionRow = typeof schemaDefinitions.$inferSelect;

/** Rows were validated when written, so their fields are read back as they were stored. */
export function toStoredSchema(row: SchemaDefinitionRow): StoredSchema {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    fields: row.fields as FieldDefinition[],
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
