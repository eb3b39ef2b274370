import { AppError } from "@/lib/errors";
import { releaseUnusedFiles } from "@/lib/files/release-unused-files";
import { presentRecord, type PublicRecord } from "./present-record";
import { emitRecordChange } from "./record-events";
import { assertSchemaHasRecords, operationOptions, planWriteEvent, writeOptions, type RecordWriteOptions } from "./record-service-options";

export interface DeleteRecordOptions extends RecordWriteOptions {
  id: string;
}

/**
 * Deletes one record by id and answers it as it was; a missing id is AppError("not_found").
 * Its files go with it unless another record of the field uses them (releaseUnusedFiles). Records
 * that point at it keep the id (expansion then reads null). Emits a "delete" record-change event
 * when origin is "api".
 */
export async function deleteRecord(options: DeleteRecordOptions): Promise<PublicRecord> {
  const { store, schema, schemas, signal } = options;
  assertSchemaHasRecords(schema);
  const notFound = () => new AppError("not_found", `no ${schema.name} record has the id "${options.id}"`);
  const [stored] = await store.findByIds(schema.name, [options.id], operationOptions(signal));
  if (!stored) throw notFound();
  const plan = await planWriteEvent(options, "delete");
  const deleted = await store.deleteMany(schema.name, [{ field: "id", op: "eq", value: options.id }], writeOptions(signal, plan));
  // Someone else deleted it between the read and the delete: for this caller it was not there.
  if (deleted === 0) throw notFound();
  const record = presentRecord({ schema, components: schemas, record: stored });
  if (options.origin === "api") await emitRecordChange({ type: "delete", projectId: options.projectId, schema: schema.name, record }, plan);
  await releaseUnusedFiles({ store, schema, before: record, components: schemas });
  return record;
}
