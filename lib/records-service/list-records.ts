import { expandRelations } from "./expand-relations";
import { indexSearchOnFirstUse } from "./index-search-on-first-use";
import { LIST_QUERY_LIMITS, toFindQuery, type ListQuery } from "./parse-list-query";
import { createRecordPresenter, type PublicRecord } from "./present-record";
import { assertSchemaHasRecords, type RecordServiceOptions } from "./record-service-options";

export interface ListRecordsOptions extends RecordServiceOptions {
  /** A query from parseListQuery (or built by the flow engine's query step). */
  query: ListQuery;
}

export interface RecordList {
  data: PublicRecord[];
  /**
   * `total` is null when the query asked for no count (total=false). It counts at most 1,000
   * matches: when more match, it is 1,000 and `totalCapped` is true (absent otherwise).
   */
  meta: { page: number; perPage: number; total: number | null; totalCapped?: true };
}

/**
 * One page of records: filtered, searched, sorted; counted unless the query says total=false
 * (the count runs beside the page query and stops at LIST_QUERY_LIMITS.maxTotal + 1 matches, so it
 * stays cheap on a million records); relations expanded with one store query per expanded field,
 * never per record.
 */
export async function listRecords(options: ListRecordsOptions): Promise<RecordList> {
  const { store, schema, schemas, query, signal } = options;
  assertSchemaHasRecords(schema);
  const find = toFindQuery(query, { signal });
  indexSearchOnFirstUse(store, schema, find.search);
  const [stored, total] = await Promise.all([
    store.find(schema.name, find),
    query.withTotal
      ? store.count(schema.name, { where: find.where, limit: LIST_QUERY_LIMITS.maxTotal + 1, ...(find.search ? { search: find.search } : {}), ...(signal ? { signal } : {}) })
      : null,
  ]);
  const data = stored.map(createRecordPresenter(schema, schemas));
  if (query.expand.length > 0) {
    const expansions = await expandRelations({ store, schema, schemas, records: stored, fields: query.expand, signal });
    data.forEach((record, index) => {
      record.expand = expansions[index] ?? {};
    });
  }
  if (total !== null && total > LIST_QUERY_LIMITS.maxTotal)
    return { data, meta: { page: query.page, perPage: query.perPage, total: LIST_QUERY_LIMITS.maxTotal, totalCapped: true } };
  return { data, meta: { page: query.page, perPage: query.perPage, total } };
}
