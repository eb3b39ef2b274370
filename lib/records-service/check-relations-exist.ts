import { AppError, type ErrorIssue } from "@/lib/errors";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { collectRelationReferences } from "./collect-relation-references";
import { operationOptions } from "./record-service-options";

export interface CheckRelationsExistOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  schemas: readonly SchemaDefinition[];
  /** Values answered by validateRecordInput. */
  values: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * Checks that every related id in the values names an existing record, with one store query per
 * related schema however many ids point into it. Missing ids throw AppError("validation_failed")
 * (422) with one issue per missing id naming the field (`author`, `tags.1`, `blocks.0.link`) and the id.
 */
export async function checkRelationsExist(options: CheckRelationsExistOptions): Promise<void> {
  const references = collectRelationReferences({ schema: options.schema, components: options.schemas, values: options.values });
  if (references.length === 0) return;

  const idsByTarget = new Map<string, Set<string>>();
  for (const reference of references) {
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

  const issues: ErrorIssue[] = references
    .filter((reference) => !existing.get(reference.target)?.has(reference.id))
    .map((reference) => ({ path: reference.path, message: `no ${reference.target} record has the id "${reference.id}"` }));
  const first = issues[0];
  if (first) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new AppError("validation_failed", `${first.path}: ${first.message}${more}`, { issues, field: first.path.split(".")[0] });
  }
}
