import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FindQuery, RecordStore } from "../record-store";
import type { SqlExecutor } from "./sql-executor";
import { createSqlRecordStore } from "./sql-record-store";
import { sqlExecutorBackends } from "../testing/sql-executor-backends";
import { textPrefixKey } from "./field-keys";
import { fieldIndexName, orderIndexName, uniqueIndexName } from "./table-names";

// The contract suite proves that indexes change no answer; this proves that they are used, and
// that the planner, with the statistics an indexed field brings, tells a filter that matches most
// records (walk the order, stop at the limit) from one that matches a few (look them up).

const RECORDS = 20_000;
/** A plan node that sorts all its input (an incremental sort only sorts ties of the presorted keys). */
const FULL_SORT = /(^|->)\s*Sort\s+\(/m;

function documents(): Record<string, unknown>[] {
  return Array.from({ length: RECORDS }, (_, n) => ({
    owner: `owner_${n % 200}`,
    status: n % 100 === 0 ? "closed" : "open",
    priority: (n * 7919) % 1000,
    title: `Ticket ${n}`,
  }));
}

const backends = sqlExecutorBackends("field_index_plans");

for (const backend of backends) {
  describe(`${backend.name}: field indexes serve conditions and sorts`, () => {
    let executor: SqlExecutor;
    let store: RecordStore;
    const statements: { sql: string; params: unknown[] }[] = [];

    beforeAll(async () => {
      const inner = await backend.open();
      // Records the store's statements, so that the test can ask the planner about exactly them.
      executor = {
        query(sql, params, signal) {
          statements.push({ sql, params });
          return inner.query(sql, params, signal);
        },
        exec: (sql, signal) => inner.exec(sql, signal),
        close: () => inner.close(),
      };
      store = createSqlRecordStore({ executor, kind: backend.kind, defaultTimeoutMs: 120_000 });
      const all = documents();
      for (let start = 0; start < all.length; start += 1000) {
        await store.insertMany("tickets", all.slice(start, start + 1000));
        await store.insertMany("plain", all.slice(start, start + 1000));
      }
      for (const field of ["owner", "status", "priority"]) await store.ensureFieldIndex("tickets", field);
      await store.ensureUniqueIndex("plain", "title");
      await executor.query("ANALYZE flowpoint_records.plain", [], AbortSignal.timeout(60_000));
    }, 180_000);

    afterAll(async () => {
      await store?.close();
      await backend.cleanup();
    });

    async function plan(collection: string, query: FindQuery): Promise<string> {
      statements.length = 0;
      const found = await store.find(collection, query);
      expect(found.length).toBeGreaterThan(0);
      const statement = statements.find((candidate) => candidate.sql.startsWith("SELECT doc FROM"));
      if (!statement) throw new Error("the find statement was not seen");
      const result = await executor.query(`EXPLAIN ${statement.sql}`, statement.params, AbortSignal.timeout(10_000));
      return result.rows.map((row) => String(row["QUERY PLAN"])).join("\n");
    }

    it("looks up a selective condition in the field's index", async () => {
      const text = await plan("tickets", { where: [{ field: "owner", op: "eq", value: "owner_7" }], limit: 100 });
      expect(text).toContain(fieldIndexName("tickets", "owner"));
      expect(text).not.toContain("Seq Scan");
      // Without the index the same query reads the whole table.
      expect(await plan("plain", { where: [{ field: "owner", op: "eq", value: "owner_7" }], limit: 100 })).toContain("Seq Scan");
    });

    it("walks the default order for a condition most records meet, instead of sorting all of them", async () => {
      const text = await plan("tickets", { where: [{ field: "status", op: "eq", value: "open" }], limit: 10 });
      expect(text).toContain(orderIndexName("tickets"));
      expect(text).not.toMatch(FULL_SORT);
    });

    it("serves a sort on an indexed field from its index, ties broken by an incremental sort", async () => {
      const text = await plan("tickets", { where: [{ field: "status", op: "eq", value: "open" }], sort: [{ field: "priority", direction: "desc" }], limit: 50 });
      expect(text).toContain(fieldIndexName("tickets", "priority"));
      expect(text).toContain("Incremental Sort");
      expect(text).not.toMatch(FULL_SORT);
    });

    it("looks up equality and lists of values on a unique field in its unique index", async () => {
      expect(await plan("plain", { where: [{ field: "title", op: "eq", value: "Ticket 7" }] })).toContain(uniqueIndexName("plain", "title"));
      expect(await plan("plain", { where: [{ field: "title", op: "in", value: ["Ticket 7", "Ticket 9"] }] })).toContain(uniqueIndexName("plain", "title"));
    });

    it.runIf(backend.name === "PostgreSQL")("rebuilds an index that a failed concurrent build left invalid", async () => {
      const name = fieldIndexName("tickets", "owner");
      const validity = async () => {
        const result = await executor.query("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = $1::regclass", [`flowpoint_records.${name}`], AbortSignal.timeout(10_000));
        return result.rows[0]?.valid;
      };
      // What a cancelled CREATE INDEX CONCURRENTLY leaves behind (the test role is a superuser).
      await executor.query("UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass", [`flowpoint_records.${name}`], AbortSignal.timeout(10_000));
      expect(await validity()).toBe(false);
      await store.ensureFieldIndex("tickets", "owner");
      expect(await validity()).toBe(true);
      expect(await plan("tickets", { where: [{ field: "owner", op: "eq", value: "owner_7" }], limit: 100 })).toContain(name);
    });

    it("writes an update's conditions in the field index's keys too, so no update reads the whole table", async () => {
      statements.length = 0;
      const updated = await store.updateFirst("tickets", [{ field: "owner", op: "eq", value: "owner_9" }], { seen: true });
      expect(updated.matched).toBe(true);
      const statement = statements.find((candidate) => candidate.sql.startsWith("WITH target AS"));
      if (!statement) throw new Error("the update statement was not seen");
      const result = await executor.query(`EXPLAIN ${statement.sql}`, statement.params, AbortSignal.timeout(10_000));
      const text = result.rows.map((row) => String(row["QUERY PLAN"])).join("\n");
      // With 100 matches spread over the table, the first in the default order is found fastest by
      // walking that order; a rare value is looked up in the field index. Never a sequential scan.
      expect(statement.sql).toContain(textPrefixKey("owner"));
      expect(text).not.toContain("Seq Scan");
    });

    it("serves ranges and lists of values", async () => {
      expect(await plan("tickets", { where: [{ field: "priority", op: "gte", value: 995 }] })).toContain(fieldIndexName("tickets", "priority"));
      expect(await plan("tickets", { where: [{ field: "owner", op: "in", value: ["owner_1", "owner_2"] }] })).toContain(fieldIndexName("tickets", "owner"));
    });
  });
}
