import { AppError } from "@/lib/errors";
import { expandRelations } from "./expand-relations";
import { presentRecord, type PublicRecord } from "./present-record";
import { assertSchemaHasRecords, operationOptions, type RecordServiceOptions } from "./record-service-options";

export interface GetRecordOptions extends RecordServiceOptions {
  id: string;
  /** Relation fields to expand under `expand.<field>` (validated: unknown or non-relation → 400). */
  expand?: readonly string[];
}

/** One record by id as the API shows it, or AppError("not_found"). */
export async function getRecordOrThrow(options: GetRecordOptions): Promise<PublicRecord> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const [stored] = await store.findByIds(schema.name, [options.id], operationOptions(signal));
  if (!stored) throw new AppError("not_found", `no ${schema.name} record has the id "${options.id}"`);
  const record = presentRecord({ schema, components: schemas, record: stored });
  if (!options.expand?.length) return record;
  const [expand] = await expandRelations({ store, schema, schemas, records: [stored], fields: options.expand, signal });
  return { ...record, expand };
}
