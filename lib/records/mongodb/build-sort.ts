import type { SortSpec } from "../record-store";
import { mongoField } from "./build-filter";

/**
 * The driver's sort document for a complete sort (see completeSort). Field names never look like
 * integers (they start with a letter or underscore), so the object keeps their order.
 */
export function buildSort(sort: SortSpec[]): Record<string, 1 | -1> {
  const out: Record<string, 1 | -1> = {};
  for (const spec of sort) out[mongoField(spec.field)] = spec.direction === "asc" ? 1 : -1;
  return out;
}
