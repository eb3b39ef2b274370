import type { ErrorIssue } from "@/lib/errors";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { collectRelationReferences } from "./collect-relation-references";
import { operationOptions } from "./record-service-options";

export interface FindMissingRelationsOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  schemas: readonly SchemaDefinition[];
  /** Values answered by validateRecordInput, one object per record (a single write, or an import's batch). */
  records: readonly Record<string, unknown>[];
  signal?: AbortSignal;
}

/**
 * For each record's values, the related ids that name no existing record, as issues naming the
 * field (`author`, `tags.1`, `blocks.0.link`) and the id; an empty list when every id exists. One
 * store query per related schema, however many records and ids point into it.
 */
export async function findMissingRelations(options: FindMissingRelationsOptions): Promise<ErrorIssue[][]> {
  const referencesByRecord = options.records.map((values) => collectRelationReferences({ schema: options.schema, components: options.schemas, values }));

  const idsByTarget = new Map<string, Set<string>>();
  for (const reference of referencesByRecord.flat()) {
    let ids = idsByTarget.get(reference.target);
    if (!ids) idsByTarget.set(reference.target, (ids = new Set()));
    ids.add(reference.id);
  }

  const known = new Set(options.schemas.map((schema) => schema.name));
  const existing = new Map<string, Set<string>>();
  await Promise.all(
    [...idsByTarget].map(async ([target, ids]) => {
      if (!known.has(target)) {
        existing.set(target, new Set());
        return;
      }
      const found = await options.store.findByIds(target, [...ids], operationOptions(options.signal));
      existing.set(target, new Set(found.map((record) => record.id)));
    }),
  );

  return referencesByRecord.map((references) =>
    references
      .filter((reference) => !existing.get(reference.target)?.has(reference.id))
      .map((reference) => ({ path: reference.path, message: `no ${reference.target} record has the id "${reference.id}"` })),
  );
}
