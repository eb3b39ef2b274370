import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FindQuery, RecordStore } from "../record-store";
import type { SqlExecutor } from "./sql-executor";
import { createSqlRecordStore } from "./sql-record-store";
import { recordingExecutor, sqlExecutorBackends } from "../testing/sql-executor-backends";
import { numberKey, textPrefixKey, typeRankKey } from "./field-keys";
import { fieldIndexNames, legacyFieldIndexName, orderIndexName, qualifiedTable, searchIndexName, uniqueIndexName } from "./table-names";

// The contract suite proves that indexes change no answer; this proves that they are used, and
// that the planner, with the statistics an indexed field brings, tells a filter that matches most
// records (walk the order, stop at the limit) from one that matches a few (look them up), and that
// a sort on a field with few distinct values reads the page and not the whole top value.

const RECORDS = 20_000;
/** A plan node that sorts all its input (an incremental sort only sorts ties of the presorted keys). */
const FULL_SORT = /(^|->)\s*Sort\s+\(/m;

/** Either of a field's two indexes, which serve its conditions alike. */
function eitherFieldIndex(collection: string, field: string): RegExp {
  const { ascending, descending } = fieldIndexNames(collection, field);
  return new RegExp(`${ascending}|${descending}`);
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/** The rows a plan read from tables and indexes: what each scan returned plus what its filters threw away. */
function rowsRead(root: PlanNode): number {
  return planNodes(root)
    .filter((node) => node["Relation Name"] !== undefined)
    .reduce(
      (sum, node) => sum + (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0),
      0,
    );
}

function documents(): Record<string, unknown>[] {
  return Array.from({ length: RECORDS }, (_, n) => ({
    owner: `owner_${n % 200}`,
    status: n % 100 === 0 ? "closed" : "open",
    priority: (n * 7919) % 1000,
    level: (n * 7) % 10,
    title: `Ticket ${n}`,
    note: n % 500 === 0 ? `Needs a Refund: «Café» 100%_done (${n})` : n % 3 === 0 ? 3 : "Routine check",
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
      executor = recordingExecutor(inner, statements);
      store = createSqlRecordStore({ executor, kind: backend.kind, defaultTimeoutMs: 120_000 });
      const all = documents();
      for (let start = 0; start < all.length; start += 1000) {
        await store.insertMany("tickets", all.slice(start, start + 1000));
        await store.insertMany("plain", all.slice(start, start + 1000));
      }
      for (const field of ["owner", "status", "priority", "level"]) await store.ensureFieldIndex("tickets", field);
      await store.ensureUniqueIndex("plain", "title");
      await store.ensureSearchIndex("tickets", ["title", "note"]);
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

    /** The find's statement run under EXPLAIN (ANALYZE, BUFFERS): its plan tree, with the rows each node read. */
    async function analyze(collection: string, query: FindQuery): Promise<{ root: PlanNode; found: number }> {
      statements.length = 0;
      const found = await store.find(collection, query);
      const statement = statements.find((candidate) => candidate.sql.startsWith("SELECT doc FROM"));
      if (!statement) throw new Error("the find statement was not seen");
      const result = await executor.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`, statement.params, AbortSignal.timeout(30_000));
      const document = result.rows[0]?.["QUERY PLAN"];
      const parsed = (typeof document === "string" ? JSON.parse(document) : document) as { Plan: PlanNode }[];
      return { root: parsed[0]!.Plan, found: found.length };
    }

    it("looks up a selective condition in the field's index", async () => {
      const text = await plan("tickets", { where: [{ field: "owner", op: "eq", value: "owner_7" }], limit: 100 });
      expect(text).toMatch(eitherFieldIndex("tickets", "owner"));
      expect(text).not.toContain("Seq Scan");
      // Without the index the same query reads the whole table.
      expect(await plan("plain", { where: [{ field: "owner", op: "eq", value: "owner_7" }], limit: 100 })).toContain("Seq Scan");
    });

    it("walks the default order for a condition most records meet, instead of sorting all of them", async () => {
      const text = await plan("tickets", { where: [{ field: "status", op: "eq", value: "open" }], limit: 10 });
      expect(text).toContain(orderIndexName("tickets"));
      expect(text).not.toMatch(FULL_SORT);
    });

    it("serves a filtered sort on a field with many values from the field's index", async () => {
      const text = await plan("tickets", { where: [{ field: "status", op: "eq", value: "open" }], sort: [{ field: "priority", direction: "desc" }], limit: 50 });
      expect(text).toContain(fieldIndexNames("tickets", "priority").descending);
      expect(text).not.toMatch(FULL_SORT);
    });

    // 2,000 records share each of level's ten values: without the tie-breakers in the index, a
    // page of 50 reads all 2,000 of the first value (the group an incremental sort must finish).
    for (const direction of ["desc", "asc"] as const) {
      it(`reads about one page, not a whole value's records, for a sort on a field with few values (${direction})`, async () => {
        const alone = await analyze("tickets", { sort: [{ field: "level", direction }], limit: 50 });
        expect(alone.found).toBe(50);
        expect(rowsRead(alone.root)).toBeLessThanOrEqual(60);
        expect(planNodes(alone.root).map((node) => node["Index Name"])).toContain(fieldIndexNames("tickets", "level")[direction === "asc" ? "ascending" : "descending"]);
        // Filtered by a condition most records meet: the walk skips the few that fail it.
        const filtered = await analyze("tickets", { where: [{ field: "status", op: "eq", value: "open" }], sort: [{ field: "level", direction }], limit: 50 });
        expect(filtered.found).toBe(50);
        expect(rowsRead(filtered.root)).toBeLessThanOrEqual(60);
        // The same sort on the field without an index reads every record.
        expect(rowsRead((await analyze("plain", { sort: [{ field: "level", direction }], limit: 50 })).root)).toBeGreaterThanOrEqual(RECORDS);
      });
    }

    it("answers a sort exactly as without indexes, whatever the mix of values and however deep the page", async () => {
      const long = "y".repeat(400);
      const mixed = [true, 3, `${long}b`, "a", false, null, { k: 1 }, [1], 3.0, `${long}a`, "a", [0, 1], { k: 0 }, long, undefined, 7];
      const documents = Array.from({ length: 96 }, (_, n) => {
        const value = mixed[n % mixed.length];
        return value === undefined ? { id: `mix_${String(n).padStart(3, "0")}` } : { id: `mix_${String(n).padStart(3, "0")}`, v: value };
      });
      await store.insertMany("mixed_indexed", documents);
      await store.insertMany("mixed_plain", documents);
      await store.ensureFieldIndex("mixed_indexed", "v");
      for (const direction of ["asc", "desc"] as const) {
        for (const [skip, limit] of [
          [0, 96],
          [10, 20],
          [50, 7],
        ] as const) {
          const query: FindQuery = { sort: [{ field: "v", direction }], skip, limit };
          const indexed = (await store.find("mixed_indexed", query)).map((record) => record.id);
          const plain = (await store.find("mixed_plain", query)).map((record) => record.id);
          expect(indexed).toEqual(plain);
          expect(indexed).toHaveLength(limit);
        }
      }
    });

    it("looks a search up in the search index, with the answers of a search without it", async () => {
      const search = { text: "refund", fields: ["title", "note"] };
      const served = await analyze("tickets", { search, limit: 50 });
      expect(served.found).toBe(RECORDS / 500);
      expect(planNodes(served.root).map((node) => node["Index Name"])).toContain(searchIndexName("tickets", ["title", "note"]));
      expect(rowsRead(served.root)).toBeLessThanOrEqual(2 * (RECORDS / 500));
      expect(rowsRead((await analyze("plain", { search, limit: 50 })).root)).toBeGreaterThanOrEqual(RECORDS);
      // Case, accents, LIKE's wildcards, text across two fields, numbers (never searched), short text.
      const texts = ["refund", "REFUND", "café", "CAFÉ", "100%_d", "%", "_", "ticket 1000", "Ticket 5\nNeeds", "3", "ck", "e", "Routine check"];
      for (const text of texts) {
        const query: FindQuery = { search: { text, fields: ["title", "note"] }, sort: [{ field: "title", direction: "asc" }], limit: 1000 };
        const titles = async (collection: string) => (await store.find(collection, query)).map((record) => record.title);
        expect(await titles("tickets")).toEqual(await titles("plain"));
        expect(await store.count("tickets", { search: query.search, limit: 5000 })).toBe(await store.count("plain", { search: query.search, limit: 5000 }));
      }
    });

    it("replaces a search index over other fields, and drops it for an empty list", async () => {
      const catalog = async () => {
        const result = await executor.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'flowpoint_records' AND tablename = 'plain'", [], AbortSignal.timeout(10_000));
        return result.rows.map((row) => String(row.indexname));
      };
      await store.ensureSearchIndex("plain", ["title"]);
      expect(await catalog()).toContain(searchIndexName("plain", ["title"]));
      await store.ensureSearchIndex("plain", ["title", "note"]);
      expect(await catalog()).toContain(searchIndexName("plain", ["title", "note"]));
      // The same list again (a schema saved without changing its text fields) keeps the index as it is.
      const oid = async () =>
        (await executor.query("SELECT to_regclass($1)::oid AS oid", [`flowpoint_records.${searchIndexName("plain", ["title", "note"])}`], AbortSignal.timeout(10_000))).rows[0]
          ?.oid;
      const before = await oid();
      await store.ensureSearchIndex("plain", ["title", "note"]);
      expect(await oid()).toBe(before);
      expect(await catalog()).not.toContain(searchIndexName("plain", ["title"]));
      await store.ensureSearchIndex("plain", []);
      expect((await catalog()).filter((name) => name.endsWith("_search"))).toEqual([]);
    });

    it("caps a search index's pending list, also on an index built before the cap", async () => {
      const name = searchIndexName("capped", ["title"]);
      const options = async () =>
        (await executor.query("SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass($1)", [`flowpoint_records.${name}`], AbortSignal.timeout(10_000))).rows[0]
          ?.options;
      await store.ensureSearchIndex("capped", ["title"]);
      expect(await options()).toEqual(["gin_pending_list_limit=256"]);
      // As an index of an earlier version was built: with PostgreSQL's default list.
      await executor.query(`ALTER INDEX flowpoint_records.${name} RESET (gin_pending_list_limit)`, [], AbortSignal.timeout(10_000));
      expect(await options()).toBeNull();
      await store.ensureSearchIndex("capped", ["title"]);
      expect(await options()).toEqual(["gin_pending_list_limit=256"]);
    });

    it("replaces a field index of the earlier shape the first time a query uses it", async () => {
      await store.insertMany("legacy", documents().slice(0, 1000));
      const table = qualifiedTable("legacy");
      const legacy = legacyFieldIndexName("legacy", "level");
      await executor.query(
        `CREATE INDEX "${legacy}" ON ${table} (${[typeRankKey("level"), numberKey("level"), textPrefixKey("level")].join(", ")})`,
        [],
        AbortSignal.timeout(30_000),
      );
      const indexNames = async () => {
        const result = await executor.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'flowpoint_records' AND tablename = 'legacy'", [], AbortSignal.timeout(10_000));
        return result.rows.map((row) => String(row.indexname));
      };
      const query: FindQuery = { where: [{ field: "level", op: "eq", value: 3 }], sort: [{ field: "level", direction: "desc" }], limit: 20 };
      const before = await store.find("legacy", query);
      expect(before).toHaveLength(20);
      const { ascending, descending } = fieldIndexNames("legacy", "level");
      await expect.poll(indexNames, { timeout: 30_000, interval: 100 }).toEqual(expect.arrayContaining([ascending, descending]));
      await expect.poll(async () => (await indexNames()).includes(legacy), { timeout: 30_000, interval: 100 }).toBe(false);
      expect((await store.find("legacy", query)).map((record) => record.id)).toEqual(before.map((record) => record.id));
    });

    it("looks up equality and lists of values on a unique field in its unique index", async () => {
      expect(await plan("plain", { where: [{ field: "title", op: "eq", value: "Ticket 7" }] })).toContain(uniqueIndexName("plain", "title"));
      expect(await plan("plain", { where: [{ field: "title", op: "in", value: ["Ticket 7", "Ticket 9"] }] })).toContain(uniqueIndexName("plain", "title"));
    });

    it.runIf(backend.name === "PostgreSQL")("rebuilds an index that a failed concurrent build left invalid", async () => {
      const name = fieldIndexNames("tickets", "owner").ascending;
      const validity = async () => {
        const result = await executor.query("SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = $1::regclass", [`flowpoint_records.${name}`], AbortSignal.timeout(10_000));
        return result.rows[0]?.valid;
      };
      // What a cancelled CREATE INDEX CONCURRENTLY leaves behind (the test role is a superuser).
      await executor.query("UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass", [`flowpoint_records.${name}`], AbortSignal.timeout(10_000));
      expect(await validity()).toBe(false);
      await store.ensureFieldIndex("tickets", "owner");
      expect(await validity()).toBe(true);
      expect(await plan("tickets", { where: [{ field: "owner", op: "eq", value: "owner_7" }], limit: 100 })).toMatch(eitherFieldIndex("tickets", "owner"));
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
      expect(await plan("tickets", { where: [{ field: "priority", op: "gte", value: 995 }] })).toMatch(eitherFieldIndex("tickets", "priority"));
      expect(await plan("tickets", { where: [{ field: "owner", op: "in", value: ["owner_1", "owner_2"] }] })).toMatch(eitherFieldIndex("tickets", "owner"));
    });
  });
}
