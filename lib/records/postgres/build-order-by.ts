import type { SortSpec } from "../record-store";
import { isSystemField } from "../record-names";
import { NO_FIELD_INDEXES, type HasFieldIndex } from "./build-where";
import { sortKeys, sortKeysWithTieBreakers } from "./field-keys";

function keysFor(field: string): string[] {
  if (field === "id") return ["id"];
  if (field === "createdAt" || field === "updatedAt") return [`(doc->>'${field}') COLLATE "C"`];
  return sortKeys(field);
}

/** Whether a complete sort is one field followed by exactly the default tie-breakers (completeSort). */
function isOneFieldThenTieBreakers(sort: SortSpec[]): boolean {
  const [first, createdAt, id, ...rest] = sort;
  return (
    first !== undefined &&
    !isSystemField(first.field) &&
    createdAt?.field === "createdAt" &&
    createdAt.direction === "asc" &&
    id?.field === "id" &&
    id.direction === "asc" &&
    rest.length === 0
  );
}

/**
 * ORDER BY for a complete sort (see completeSort): numbers numerically, text byte-wise, missing
 * and null first when ascending. createdAt and id use the order index. A sort on one field that
 * has field indexes (`hasSortIndex`) is written in those indexes' keys, tie-breakers included
 * (field-keys.ts), so that an index walk answers a page without sorting; other field sorts are
 * served by the index's leading keys at most (an incremental sort breaks their ties).
 */
export function orderBySql(sort: SortSpec[], hasSortIndex: HasFieldIndex = NO_FIELD_INDEXES): string {
  if (isOneFieldThenTieBreakers(sort) && hasSortIndex(sort[0]!.field)) return sortKeysWithTieBreakers(sort[0]!.field, sort[0]!.direction === "asc" ? "ASC" : "DESC").join(", ");
  return sort.flatMap((spec) => keysFor(spec.field).map((key) => `${key} ${spec.direction === "asc" ? "ASC" : "DESC"}`)).join(", ");
}
