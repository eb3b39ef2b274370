import { AppError } from "@/lib/errors";
import type { RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { findMissingRelations } from "./find-missing-relations";

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
  const [issues = []] = await findMissingRelations({ ...options, records: [options.values] });
  const first = issues[0];
  if (first) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new AppError("validation_failed", `${first.path}: ${first.message}${more}`, { issues, field: first.path.split(".")[0] });
  }
}
