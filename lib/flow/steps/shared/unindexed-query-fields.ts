import { parseFilterLines } from "./filter-lines";
import { parseSort } from "./parse-sort";

/** A schema's fields as far as indexes go (the editor's view of a schema). */
export interface IndexedSchemaView {
  kind: "collection" | "auth" | "component";
  fields: readonly { name: string; unique?: boolean; indexed?: boolean }[];
}

export interface UnindexedQueryFields {
  /** Filtered on with no index to look the value up: the query reads every record. */
  filters: string[];
  /** Sorted on with no index in that order: every match is read and sorted before the limit. */
  sort: string | null;
}

/** Fields whose own columns or indexes serve equality filters (the primary key, the order index). */
const FILTER_SERVED = new Set(["id", "createdAt"]);
/** Fields whose index serves a sort. */
const SORT_SERVED = new Set(["id", "createdAt"]);

/**
 * Which fields of a query or update step's filters and sort no index serves, so the editor can
 * say so before a collection grows: unique and `indexed` fields are looked up in their index,
 * `indexed` fields are also sorted by it. Unknown fields are left to the save-time validation.
 */
export function unindexedQueryFields(schema: IndexedSchemaView, settings: { filters?: unknown; sort?: unknown }): UnindexedQueryFields {
  const byName = new Map(schema.fields.map((field) => [field.name, field]));
  if (schema.kind === "auth") byName.set("email", { name: "email", unique: true });
  const known = (name: string) => byName.has(name) || FILTER_SERVED.has(name) || name === "updatedAt" || (schema.kind === "auth" && name === "emailVerified");

  const parsed = typeof settings.filters === "string" ? parseFilterLines(settings.filters) : null;
  const filters = parsed?.ok
    ? [...new Set(parsed.filters.map((filter) => filter.field))].filter((name) => {
        const field = byName.get(name);
        return known(name) && !FILTER_SERVED.has(name) && !(field?.unique || field?.indexed);
      })
    : [];

  const sortField = typeof settings.sort === "string" ? (parseSort(settings.sort)?.field ?? null) : null;
  const sort = sortField !== null && known(sortField) && !SORT_SERVED.has(sortField) && !byName.get(sortField)?.indexed ? sortField : null;
  return { filters, sort };
}
