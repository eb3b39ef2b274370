import { AppError } from "@/lib/errors";
import type { RecordStore, StoredRecord } from "@/lib/records/record-store";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { createRecordPresenter, type PublicRecord } from "./present-record";
import { operationOptions } from "./record-service-options";

export interface ExpandRelationsOptions {
  store: RecordStore;
  schema: SchemaDefinition;
  schemas: readonly SchemaDefinition[];
  /** The stored records to expand (a page, or one record). */
  records: readonly StoredRecord[];
  /** Top-level relation field names. */
  fields: readonly string[];
  signal?: AbortSignal;
}

/** Related records under their field name: one record (or null) or a list, in the stored order. */
export type ExpandedRelations = Record<string, PublicRecord | null | PublicRecord[]>;

/**
 * Fetches the records that relation fields point at, with exactly one store query per field
 * whatever the number of records (none when no record has an id in it). Answers one expand
 * object per input record, in order. Related records are shaped by their own schema, so hidden
 * fields (password hashes, removed fields) stay hidden; ids whose record is gone read as null or
 * are left out of lists.
 */
export async function expandRelations(options: ExpandRelationsOptions): Promise<ExpandedRelations[]> {
  const fields = options.fields.map((name) => {
    const field = effectiveFields(options.schema).find((candidate) => candidate.name === name);
    if (!field || field.type !== "relation") throw new AppError("bad_request", `expand: "${name}" is not a relation field of ${options.schema.name}`);
    return field;
  });

  const related = await Promise.all(
    fields.map(async (field) => {
      const ids = new Set<string>();
      for (const record of options.records) {
        const value = record[field.name];
        if (typeof value === "string") ids.add(value);
        else if (Array.isArray(value)) for (const id of value) if (typeof id === "string") ids.add(id);
      }
      const target = options.schemas.find((schema) => schema.name === field.target);
      const byId = new Map<string, PublicRecord>();
      if (ids.size === 0 || !target) return byId;
      const found = await options.store.findByIds(field.target, [...ids], operationOptions(options.signal));
      const present = createRecordPresenter(target, options.schemas);
      for (const record of found) byId.set(record.id, present(record));
      return byId;
    }),
  );

  return options.records.map((record) => {
    const expand: ExpandedRelations = {};
    fields.forEach((field, index) => {
      const byId = related[index] ?? new Map<string, PublicRecord>();
      const value = record[field.name];
      if (field.many) {
        const ids = Array.isArray(value) ? value : [];
        expand[field.name] = ids.flatMap((id) => {
          const found = typeof id === "string" ? byId.get(id) : undefined;
          return found ? [found] : [];
        });
      } else {
        expand[field.name] = typeof value === "string" ? (byId.get(value) ?? null) : null;
      }
    });
    return expand;
  });
}
