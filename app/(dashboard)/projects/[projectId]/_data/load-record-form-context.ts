import "server-only";
import type { RecordStore } from "@/lib/records/record-store";
import { collectRelationReferences } from "@/lib/records-service/collect-relation-references";
import { findRecordChoices, type RecordChoice } from "@/lib/records-service/find-record-choices";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";

/** What the record form needs besides the record: the schema, its components and the labels of the records its values point at. */
export interface RecordFormContext {
  schema: Pick<SchemaDefinition, "name" | "kind" | "fields">;
  components: Pick<SchemaDefinition, "name" | "kind" | "fields">[];
  relationChoices: RecordChoice[];
}

/**
 * The record form's context for a record (null: a new one): related records are looked up with one
 * query per related schema, whatever the depth at which the values point at them; ids that name no
 * record are left out (the form shows them as they are).
 */
export async function loadRecordFormContext(options: {
  /** The customer database; null for a new record (nothing to look up). */
  store: RecordStore | null;
  schema: SchemaDefinition;
  schemas: readonly SchemaDefinition[];
  record: Record<string, unknown> | null;
}): Promise<RecordFormContext> {
  const { store, schema, schemas, record } = options;
  const plain = (definition: SchemaDefinition) => ({ name: definition.name, kind: definition.kind, fields: definition.fields });
  const components = schemas.filter((candidate) => candidate.kind === "component").map(plain);
  if (!record || !store) return { schema: plain(schema), components, relationChoices: [] };

  const idsByTarget = new Map<string, string[]>();
  for (const reference of collectRelationReferences({ schema, components: schemas, values: record })) {
    idsByTarget.set(reference.target, [...(idsByTarget.get(reference.target) ?? []), reference.id]);
  }
  const found = await Promise.all(
    [...idsByTarget].map(async ([target, ids]) => {
      const targetSchema = schemas.find((candidate) => candidate.name === target && candidate.kind !== "component");
      return targetSchema ? findRecordChoices({ store, schema: targetSchema, schemas, ids }) : [];
    }),
  );
  return { schema: plain(schema), components, relationChoices: found.flat() };
}
