import type { FlowSort } from "@/lib/flow/engine/flow-services";

/** `field` → ascending, `-field` → descending. */
export function parseSort(sort: string | null): FlowSort | null {
  if (sort === null || sort === "") return null;
  return sort.startsWith("-") ? { field: sort.slice(1), direction: "desc" } : { field: sort, direction: "asc" };
}
