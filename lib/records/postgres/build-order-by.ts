import type { SortSpec } from "../record-store";
import { sortKeys } from "./field-keys";

function keysFor(field: string): string[] {
  if (field === "id") return ["id"];
  if (field === "createdAt" || field === "updatedAt") return [`(doc->>'${field}') COLLATE "C"`];
  return sortKeys(field);
}

/**
 * ORDER BY for a complete sort (see completeSort): numbers numerically, text byte-wise, missing
 * and null first when ascending. createdAt and id use the order index; an indexed field's index
 * serves its leading keys (field-keys.ts).
 */
export function orderBySql(sort: SortSpec[]): string {
  return sort.flatMap((spec) => keysFor(spec.field).map((key) => `${key} ${spec.direction === "asc" ? "ASC" : "DESC"}`)).join(", ");
}
