import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { createSqlRecordStore } from "@/lib/records/postgres/sql-record-store";
import type { SqlExecutor } from "@/lib/records/postgres/sql-executor";
import { searchIndexName } from "@/lib/records/postgres/table-names";
import type { RecordStore } from "@/lib/records/record-store";
import { recordingExecutor, sqlExecutorBackends } from "@/lib/records/testing/sql-executor-backends";
import { ensureSearchIndexQuietly } from "@/lib/schemas/apply-field-indexes";
import { parseSchemaDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { findRecordChoices } from "./find-record-choices";
import { indexSearchOnFirstUse } from "./index-search-on-first-use";
import { listRecords } from "./list-records";
import { parseListQuery } from "./parse-list-query";

const tickets = parseSchemaDefinition({
  name: "tickets",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "note", type: "text" },
    { name: "priority", type: "integer" },
  ],
});
const ticketsRenamed = parseSchemaDefinition({ ...tickets, fields: tickets.fields.filter((field) => field.name !== "note") });
const notes = parseSchemaDefinition({
  name: "notes",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "body", type: "text" },
  ],
});
const people = parseSchemaDefinition({ name: "people", kind: "collection", fields: [{ name: "name", type: "string", required: true }] });

const CATALOG_READ = /FROM pg_index i JOIN pg_class c/;

for (const backend of sqlExecutorBackends("search_first_use")) {
  describe(`${backend.name}: a collection's search index is built by its first search`, () => {
    let executor: SqlExecutor;
    let store: RecordStore;
    const statements: { sql: string; params: unknown[] }[] = [];
    const schemas: SchemaDefinition[] = [tickets, notes, people];

    const searchIndexes = async (collection: string) => {
      const result = await executor.query(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'flowpoint_records' AND tablename = $1 AND indexname LIKE '%_search'",
        [collection],
        AbortSignal.timeout(10_000),
      );
      return result.rows.map((row) => String(row.indexname));
    };
    const list = (schema: SchemaDefinition, query: string) => listRecords({ store, schema, schemas, query: parseListQuery({ schema, params: new URLSearchParams(query) }) });

    beforeAll(async () => {
      executor = await backend.open();
      store = createSqlRecordStore({ executor: recordingExecutor(executor, statements), kind: backend.kind, defaultTimeoutMs: 60_000 });
      await store.insertMany(
        "tickets",
        Array.from({ length: 300 }, (_, n) => ({ title: `Ticket ${n}`, note: n % 50 === 0 ? "Needs a Refund" : "Routine check", priority: n % 5 })),
      );
      await store.insertMany("people", [{ name: "Ada Lovelace" }, { name: "Grace Hopper" }]);
    });

    afterAll(async () => {
      await executor?.close();
      await backend.cleanup();
    });

    it("saving the schema of a collection never searched builds no search index", async () => {
      await ensureSearchIndexQuietly(store, tickets);
      expect(await searchIndexes("tickets")).toEqual([]);
    });

    it("the first search answers from the records, then the index is built once for every later search", async () => {
      const first = await list(tickets, "search=refund&sort=title&perPage=100");
      expect(first.meta.total).toBe(6);
      expect(first.data.map((record) => record.title)).toEqual(["Ticket 0", "Ticket 100", "Ticket 150", "Ticket 200", "Ticket 250", "Ticket 50"]);
      expect(await settleAfterResponseWork(30_000)).toBe(true);
      expect(await searchIndexes("tickets")).toEqual([searchIndexName("tickets", ["title", "note"])]);

      const catalogReadsBefore = statements.filter((statement) => CATALOG_READ.test(statement.sql)).length;
      const again = await list(tickets, "search=REFUND&sort=title&perPage=100");
      expect(again.data.map((record) => record.id)).toEqual(first.data.map((record) => record.id));
      await list(tickets, "search=routine&perPage=1");
      expect(await settleAfterResponseWork(30_000)).toBe(true);
      // This process knows the collection is indexed: later searches cost no catalog read.
      expect(statements.filter((statement) => CATALOG_READ.test(statement.sql)).length).toBe(catalogReadsBefore);
    });

    it("a schema save replaces the index of a searched collection with one over its new text fields", async () => {
      await ensureSearchIndexQuietly(store, ticketsRenamed);
      expect(await searchIndexes("tickets")).toEqual([searchIndexName("tickets", ["title"])]);
      await ensureSearchIndexQuietly(store, tickets);
      expect(await searchIndexes("tickets")).toEqual([searchIndexName("tickets", ["title", "note"])]);
    });

    it("a search in a record picker counts as a first search", async () => {
      const choices = await findRecordChoices({ store, schema: people, schemas, search: "hopper" });
      expect(choices.map((choice) => choice.label)).toEqual(["Grace Hopper"]);
      expect(await settleAfterResponseWork(30_000)).toBe(true);
      expect(await searchIndexes("people")).toEqual([searchIndexName("people", ["name"])]);
    });

    it("a list without a search, and a search over another field list (a query step's own), build nothing", async () => {
      await store.insertMany("notes", [{ title: "Plain", body: "Text" }]);
      await list(notes, "sort=title");
      indexSearchOnFirstUse(store, notes, { text: "text", fields: ["body"] });
      expect(await settleAfterResponseWork(30_000)).toBe(true);
      expect(await searchIndexes("notes")).toEqual([]);
    });
  });
}
