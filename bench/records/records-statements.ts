/**
 * The SQL the record store (lib/records/postgres/sql-record-store.ts) issues for the records
 * benchmark's queries, built with the store's own builders so that the floor server runs exactly
 * the app's statements (and the same indexes serve both), and so that the benchmark can EXPLAIN them.
 * Built once at start-up; a request only fills in its parameter values.
 */
import { completeSort, type CheckedCondition } from "@/lib/records/check-query";
import { orderBySql } from "@/lib/records/postgres/build-order-by";
import { SqlParams, whereSql } from "@/lib/records/postgres/build-where";
import { qualifiedTable } from "@/lib/records/postgres/table-names";
import type { SortSpec } from "@/lib/records/record-store";
import { DEFAULT_SORT, LIST_QUERY_LIMITS } from "@/lib/records-service/parse-list-query";
import { INBOX_LIMIT, INDEXED_TICKET_FIELDS, SELECTIVE_LIMIT, UNSELECTIVE_LIMIT } from "./records-fixtures";

/**
 * Stands for the value a request brings (the owner): replaced by it in the parameter list. A text
 * like any other (the builders write FALSE for text no record can hold) and shorter than the
 * indexed text prefix, as owners are, so the statement is the one every owner gets.
 */
const REQUEST_VALUE = "bench-request-value-3f9c2a71";

export interface Statement {
  text: string;
  /** The parameter values; REQUEST_VALUE where the request's value goes. */
  values: readonly unknown[];
}

/** The parameter values of a statement for one request. */
export function valuesFor(statement: Statement, requestValue?: string): unknown[] {
  return statement.values.map((value) => (value === REQUEST_VALUE ? requestValue : value));
}

/** Fails when a statement that should take the request's value does not (the builders wrote it differently). */
function assertTakesRequestValue(statement: Statement): Statement {
  if (!statement.values.includes(REQUEST_VALUE)) throw new Error(`the statement does not take the request's value as a parameter: ${statement.text}`);
  return statement;
}

interface Query {
  collection: string;
  where: CheckedCondition[];
  sort: readonly SortSpec[];
  limit: number;
}

const indexedIn = (collection: string) => (field: string) => collection === "tickets" && INDEXED_TICKET_FIELDS.includes(field);

/** SELECT doc … ORDER BY … LIMIT $n, as RecordStore.find writes it. */
function findSql(query: Query, params: SqlParams): string {
  const where = whereSql({ where: query.where }, params, indexedIn(query.collection));
  return `SELECT doc FROM ${qualifiedTable(query.collection)} WHERE ${where} ORDER BY ${orderBySql(completeSort([...query.sort]))} LIMIT ${params.add(query.limit)}`;
}

/** The capped count the records API runs beside the page (listRecords → RecordStore.count with a limit). */
function countSql(query: Query, params: SqlParams): string {
  const where = whereSql({ where: query.where }, params, indexedIn(query.collection));
  return `SELECT count(*) AS n FROM (SELECT 1 FROM ${qualifiedTable(query.collection)} WHERE ${where} LIMIT ${params.add(LIST_QUERY_LIMITS.maxTotal + 1)}) AS matched`;
}

function statement(build: (params: SqlParams) => string): Statement {
  const params = new SqlParams();
  const text = build(params);
  return { text, values: params.values };
}

/** A query step's sort (`-dueAt`) or the records API's (`sort=-dueAt`): the field, then the id the same way. */
function sortBy(field: string, direction: SortSpec["direction"]): SortSpec[] {
  return [
    { field, direction },
    { field: "id", direction },
  ];
}

const QUERIES = {
  byOwner: { collection: "tickets", where: [{ field: "owner", op: "eq", value: REQUEST_VALUE }], sort: DEFAULT_SORT, limit: SELECTIVE_LIMIT },
  openByDue: { collection: "tickets", where: [{ field: "status", op: "eq", value: "open" }], sort: sortBy("dueAt", "desc"), limit: UNSELECTIVE_LIMIT },
  inboxOpen: { collection: "inbox", where: [{ field: "status", op: "eq", value: "open" }], sort: DEFAULT_SORT, limit: INBOX_LIMIT },
  newestTickets: { collection: "tickets", where: [], sort: DEFAULT_SORT, limit: 50 },
} satisfies Record<string, Query>;

export type QueryName = keyof typeof QUERIES;

/** The app's own statements, one by one: what the benchmark EXPLAINs. */
export function appStatements(name: QueryName): { find: Statement; count: Statement } {
  const query = QUERIES[name];
  const built = { find: statement((params) => findSql(query, params)), count: statement((params) => countSql(query, params)) };
  if (name === "byOwner") Object.values(built).forEach(assertTakesRequestValue);
  return built;
}

/** The page, as one statement (the floor's answer to a query step). */
export function pageStatement(name: QueryName): Statement {
  return appStatements(name).find;
}

/**
 * The page and its capped total in one statement (the floor's answer to the records API): the
 * app's two statements, the count as an uncorrelated subquery run once.
 */
export function pageWithTotalStatement(name: QueryName): Statement {
  const query = QUERIES[name];
  const built = statement((params) => {
    const page = findSql(query, params);
    const count = countSql(query, params);
    return `SELECT page.doc, (${count}) AS total FROM (${page}) AS page`;
  });
  return name === "byOwner" ? assertTakesRequestValue(built) : built;
}

/** Scenario 2's page with each ticket's author name, in one statement (the app: page, then findByIds). */
export function newestTicketsWithAuthorStatement(): Statement {
  const query = QUERIES.newestTickets;
  return statement((params) => {
    const page = findSql(query, params);
    return (
      `SELECT page.doc, author.name FROM (${page}) AS page ` +
      `LEFT JOIN LATERAL (SELECT doc->>'name' AS name FROM ${qualifiedTable("authors")} WHERE id = page.doc->>'author') AS author ON TRUE`
    );
  });
}

/** The store's INSERT of a record without an outbox entry (a flow's Create step). */
export function insertStatementText(collection: string): string {
  return `INSERT INTO ${qualifiedTable(collection)} (id, doc) VALUES ($1, $2::jsonb)`;
}

/** The store's insertMany: a JSON array of documents in one statement (batched inserts, execution log batches). */
export function insertManyStatementText(collection: string): string {
  return `INSERT INTO ${qualifiedTable(collection)} (id, doc) SELECT item->>'id', item FROM jsonb_array_elements($1::jsonb) AS item`;
}
