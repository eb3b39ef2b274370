import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smallestIdAt } from "@/lib/ids";
import { createLookupIndexSql, lookupIndexName } from "@/lib/records/postgres/lookup-index";
import { createSqlRecordStore } from "@/lib/records/postgres/sql-record-store";
import type { SqlExecutor } from "@/lib/records/postgres/sql-executor";
import type { RecordStore } from "@/lib/records/record-store";
import { recordingExecutor, sqlExecutorBackends } from "@/lib/records/testing/sql-executor-backends";
import { ensureExecutionLogIndexes } from "./ensure-execution-log-indexes";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";
import { listExecutions } from "./list-executions";
import { buildExecutionLogEntry, writeExecutionLog } from "./write-execution-log";

// The executions viewer's filter by endpoint or automation must look its runs up, not walk the
// whole log newest first until a page is full: a rare endpoint's page would read every entry.
// This proves the plan on a log of 20,000 entries, and that the answers are what the filters say.

const ENTRIES = 20_000;
const BASE_MS = Date.parse("2026-05-01T00:00:00.000Z");
const BUSY_ENDPOINTS = Array.from({ length: 40 }, (_, n) => `ep_${String(n + 1).padStart(26, "0")}`);
const RARE_ENDPOINT = "ep_0000000000000000000000rare";
const RARE_AUTOMATION = "aut_0000000000000000000000rare";
const indexOf = (field: string) => new RegExp(lookupIndexName(EXECUTIONS_COLLECTION, field));

function plantedEntries(): ExecutionLogEntry[] {
  return Array.from({ length: ENTRIES }, (_, index) => {
    const startedAt = new Date(BASE_MS + index * 1_000);
    const rare = index % 1_000 === 17;
    const automation = index % 9 === 0 || index % 1_000 === 503;
    const entry = buildExecutionLogEntry({
      executionId: `${smallestIdAt("execution", startedAt.getTime()).slice(0, -4)}${index.toString(32).padStart(4, "0")}`,
      source: automation
        ? { type: "automation", automationId: index % 1_000 === 503 ? RARE_AUTOMATION : "aut_00000000000000000000000001", trigger: "schedule", attempt: 1 }
        : { type: "endpoint", endpointId: rare ? RARE_ENDPOINT : BUSY_ENDPOINTS[index % BUSY_ENDPOINTS.length]!, method: "GET", slug: "tickets" },
      startedAt,
      run: null,
      httpStatus: automation ? null : 200,
    });
    return { ...entry, outcome: "completed" };
  });
}

for (const backend of sqlExecutorBackends("execution_log_indexes")) {
  describe(`${backend.name}: the execution log's endpoint and automation indexes`, () => {
    let executor: SqlExecutor;
    let store: RecordStore;
    const statements: { sql: string; params: unknown[] }[] = [];
    const entries = plantedEntries();
    const newestFirst = (filter: (entry: ExecutionLogEntry) => boolean) =>
      entries
        .filter(filter)
        .map((entry) => entry.id)
        .sort((a, b) => (a < b ? 1 : -1));

    beforeAll(async () => {
      const inner = await backend.open();
      executor = recordingExecutor(inner, statements);
      store = createSqlRecordStore({ executor, kind: backend.kind, defaultTimeoutMs: 120_000 });
      for (let start = 0; start < entries.length; start += 1_000) {
        await store.insertMany(EXECUTIONS_COLLECTION, entries.slice(start, start + 1_000) as unknown as Record<string, unknown>[]);
      }
      // A project whose log was written before the indexes existed: they are built over it.
      await ensureExecutionLogIndexes(store);
    }, 240_000);

    afterAll(async () => {
      await store?.close();
      await backend.cleanup();
    });

    /** Every page of a listing (pages of `limit`) and the plan of its first page's statement. */
    async function listAll(query: Record<string, string>, limit: number): Promise<{ ids: string[]; plan: string; statement: { sql: string; params: unknown[] } }> {
      const ids: string[] = [];
      let before: string | null = null;
      let first: { sql: string; params: unknown[] } | undefined;
      for (let pages = 0; pages < 100; pages++) {
        statements.length = 0;
        const page: { data: ExecutionLogEntry[]; nextBefore: string | null } = await listExecutions({
          store,
          query: { ...query, limit: String(limit), ...(before ? { before } : {}) },
        });
        first ??= statements.find((candidate) => candidate.sql.startsWith("SELECT doc FROM"));
        ids.push(...page.data.map((entry) => entry.id));
        before = page.nextBefore;
        if (!before) break;
      }
      if (!first) throw new Error("the list statement was not seen");
      return { ids, plan: await explain(first), statement: first };
    }

    async function explain(statement: { sql: string; params: unknown[] }): Promise<string> {
      const result = await executor.query(`EXPLAIN ${statement.sql}`, statement.params, AbortSignal.timeout(10_000));
      return result.rows.map((row) => String(row["QUERY PLAN"])).join("\n");
    }

    it("looks a rare endpoint's runs up in its index, and answers exactly its runs newest first", async () => {
      const { ids, plan } = await listAll({ endpointId: RARE_ENDPOINT }, 7);
      expect(ids).toEqual(newestFirst((entry) => entry.endpointId === RARE_ENDPOINT));
      expect(ids.length).toBeGreaterThan(10);
      expect(plan).toMatch(indexOf("endpointId"));
      expect(plan).not.toContain("Seq Scan");
      // The index hands the matches over newest first: nothing is sorted.
      expect(plan).not.toMatch(/(^|->)\s*Sort\s+\(/m);
    });

    it("looks a rare automation's runs up in its index", async () => {
      const { ids, plan } = await listAll({ automationId: RARE_AUTOMATION }, 50);
      expect(ids).toEqual(newestFirst((entry) => entry.automationId === RARE_AUTOMATION));
      expect(plan).toMatch(indexOf("automationId"));
    });

    it("changes no answer of a busy endpoint's filter, combined with others, paged through", async () => {
      const busy = BUSY_ENDPOINTS[3]!;
      const { ids } = await listAll({ endpointId: busy, from: "2026-05-01T01:00:00Z", to: "2026-05-01T04:00:00Z" }, 20);
      expect(ids).toEqual(newestFirst((entry) => entry.endpointId === busy && entry.startedAt >= "2026-05-01T01:00:00.000Z" && entry.startedAt < "2026-05-01T04:00:00.000Z"));
      expect(ids.length).toBeGreaterThan(100);
    });

    it("would read the log without the index (the plan the index replaces)", async () => {
      const { statement } = await listAll({ endpointId: RARE_ENDPOINT }, 7);
      const names = await executor.query(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'flowpoint_records' AND tablename = $1",
        [EXECUTIONS_COLLECTION],
        AbortSignal.timeout(10_000),
      );
      const endpointIndexes = names.rows.map((row) => String(row.indexname)).filter((name) => indexOf("endpointId").test(name));
      expect(endpointIndexes.length).toBeGreaterThan(0);
      await executor.query(`DROP INDEX flowpoint_records."${lookupIndexName(EXECUTIONS_COLLECTION, "endpointId")}"`, [], AbortSignal.timeout(10_000));
      try {
        const plan = await explain(statement);
        expect(plan).not.toMatch(indexOf("endpointId"));
        // Newest first through the whole log, keeping the rare endpoint's entries.
        expect(plan).toMatch(/Index Scan Backward using|Seq Scan/);
      } finally {
        // The store built it once already and would not again: put it back as it built it.
        await executor.query(createLookupIndexSql(EXECUTIONS_COLLECTION, "endpointId", false), [], AbortSignal.timeout(60_000));
      }
    });

    it("creates the indexes with a new project's log, on its first entry", async () => {
      // Its own database (a backend opens one at a time, and drops the one it opened last).
      const freshBackend = sqlExecutorBackends("execution_log_indexes_fresh").find((candidate) => candidate.kind === backend.kind)!;
      const fresh = await freshBackend.open();
      const freshStore = createSqlRecordStore({ executor: fresh, kind: backend.kind, defaultTimeoutMs: 60_000 });
      try {
        const [entry] = plantedEntries();
        await writeExecutionLog({
          store: freshStore,
          projectId: "prj_fresh",
          retentionDays: 7,
          executionId: entry!.id,
          source: { type: "endpoint", endpointId: RARE_ENDPOINT, method: "GET", slug: "tickets" },
          startedAt: new Date(entry!.startedAt),
          run: null,
          httpStatus: 200,
        });
        // The write started the build off its path; the same (once per store) promise is awaited here.
        await ensureExecutionLogIndexes(freshStore);
        const names = await fresh.query(
          "SELECT indexname FROM pg_indexes WHERE schemaname = 'flowpoint_records' AND tablename = $1",
          [EXECUTIONS_COLLECTION],
          AbortSignal.timeout(10_000),
        );
        const indexNames = names.rows.map((row) => String(row.indexname));
        expect(indexNames.some((name) => indexOf("endpointId").test(name))).toBe(true);
        expect(indexNames.some((name) => indexOf("automationId").test(name))).toBe(true);
        expect((await listExecutions({ store: freshStore, query: { endpointId: RARE_ENDPOINT } })).data.map((logged) => logged.id)).toEqual([entry!.id]);
      } finally {
        await freshStore.close();
        await freshBackend.cleanup();
      }
    });
  });
}

describe("building the indexes once per store", () => {
  it("asks the database once, however many writes and listings ask for them", async () => {
    const [backend] = sqlExecutorBackends("execution_log_indexes_once");
    const executor = await backend!.open();
    const store = createSqlRecordStore({ executor, kind: backend!.kind });
    try {
      await ensureExecutionLogIndexes(store);
      const before = store.metrics.queries;
      await Promise.all([ensureExecutionLogIndexes(store), ensureExecutionLogIndexes(store)]);
      await listExecutions({ store, query: { endpointId: RARE_ENDPOINT } });
      expect(store.metrics.queries - before).toBe(1);
    } finally {
      await store.close();
      await backend!.cleanup();
    }
  });
});
