import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { smallestIdAt } from "@/lib/ids";
import { createMongoRecordStore } from "@/lib/records/mongodb/mongodb-record-store";
import { createPgliteRecordStore } from "@/lib/records/postgres/create-pglite-record-store";
import { createPostgresRecordStore } from "@/lib/records/postgres/create-postgres-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { customerDatabaseBackends, type FreshDatabase } from "@/lib/records/testing/customer-databases";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";
import { listExecutions } from "./list-executions";
import { buildExecutionLogEntry } from "./write-execution-log";

/**
 * The list's filters and cursor on every customer database backend of the run (PGlite always,
 * PostgreSQL with DATABASE_URL, MongoDB with MONGODB_URL): the same conditions must select the same
 * runs in the same order everywhere, and paging must neither repeat nor skip one.
 */

const RUNS = 300;
const BASE_MS = Date.parse("2026-05-01T12:00:00.000Z");
const ENDPOINTS = ["ep_00000000000000000000000001", "ep_00000000000000000000000002", "ep_00000000000000000000000003"];
const AUTOMATION = "aut_00000000000000000000000001";

function plantedEntries(): ExecutionLogEntry[] {
  return Array.from({ length: RUNS }, (_, index) => {
    const startedAt = new Date(BASE_MS + index * 37_000);
    const automation = index % 7 === 0;
    const httpStatus = automation ? null : [200, 201, 302, 404, 422, 500][index % 6]!;
    const entry = buildExecutionLogEntry({
      executionId: `${smallestIdAt("execution", startedAt.getTime()).slice(0, -4)}${index.toString(32).padStart(4, "0")}`,
      source: automation
        ? { type: "automation", automationId: AUTOMATION, trigger: "schedule", attempt: 1 }
        : { type: "endpoint", endpointId: ENDPOINTS[index % 3]!, method: "GET", slug: `e${index % 3}` },
      startedAt,
      run: null,
      httpStatus,
    });
    return { ...entry, outcome: httpStatus !== null && httpStatus < 400 ? "completed" : httpStatus === 422 ? "stopped" : "failed" };
  });
}

type Filter = (entry: ExecutionLogEntry) => boolean;

const CASES: Array<{ query: Record<string, string>; expected: Filter }> = [
  { query: {}, expected: () => true },
  { query: { endpointId: ENDPOINTS[1]! }, expected: (entry) => entry.endpointId === ENDPOINTS[1] },
  { query: { automationId: AUTOMATION, outcome: "failed" }, expected: (entry) => entry.automationId === AUTOMATION },
  {
    query: { source: "endpoint", status: "4xx" },
    expected: (entry) => entry.source === "endpoint" && entry.httpStatus !== null && entry.httpStatus >= 400 && entry.httpStatus < 500,
  },
  { query: { status: "302" }, expected: (entry) => entry.httpStatus === 302 },
  { query: { outcome: "stopped", endpointId: ENDPOINTS[0]! }, expected: (entry) => entry.outcome === "stopped" && entry.endpointId === ENDPOINTS[0] },
  {
    query: { from: "2026-05-01T12:30:00Z", to: "2026-05-01T14:00:00Z", status: "2xx" },
    expected: (entry) => entry.startedAt >= "2026-05-01T12:30:00.000Z" && entry.startedAt < "2026-05-01T14:00:00.000Z" && entry.httpStatus !== null && entry.httpStatus < 300,
  },
  // An upper bound far before every run: nothing, however far the id bound reaches.
  { query: { to: "2026-05-01T11:00:00Z" }, expected: () => false },
];

function registerListSuite(name: string, open: () => Promise<RecordStore>, cleanup: () => Promise<void>): void {
  describe(`listExecutions on ${name}`, () => {
    let store: RecordStore;
    const entries = plantedEntries();
    const newestFirst = (filter: Filter) =>
      entries
        .filter(filter)
        .map((entry) => entry.id)
        .sort((a, b) => (a < b ? 1 : -1));

    beforeAll(async () => {
      store = await open();
      await store.insertMany(EXECUTIONS_COLLECTION, entries as unknown as Record<string, unknown>[]);
    }, 120_000);
    afterAll(async () => {
      await store?.close();
      await cleanup();
    });

    it("selects the same runs as the filters say, newest first, through pages of 11 with no repeats or gaps", async () => {
      for (const { query, expected } of CASES) {
        const ids: string[] = [];
        let before: string | null = null;
        for (let pages = 0; pages < 50; pages++) {
          const page: { data: ExecutionLogEntry[]; nextBefore: string | null } = await listExecutions({ store, query: { ...query, limit: 11, ...(before ? { before } : {}) } });
          ids.push(...page.data.map((entry) => entry.id));
          before = page.nextBefore;
          if (!before) break;
        }
        expect(ids, JSON.stringify(query)).toEqual(newestFirst(expected));
      }
    });

    it("keeps a page's cost flat: a deep cursor answers one page read with one query", async () => {
      const deepest = newestFirst(() => true)[RUNS - 20]!;
      const queriesBefore = store.metrics.queries;
      const page = await listExecutions({ store, query: { before: deepest, limit: 10 } });
      expect(store.metrics.queries - queriesBefore).toBe(1);
      expect(page.data.map((entry) => entry.id)).toEqual(newestFirst(() => true).slice(RUNS - 19, RUNS - 9));
    });
  });
}

for (const backend of customerDatabaseBackends()) {
  if (backend.kind === "local") {
    let root = "";
    registerListSuite(
      backend.name,
      async () => {
        const base = path.join(getConfig().DATA_DIR, "list-executions");
        mkdirSync(path.dirname(base), { recursive: true });
        root = mkdtempSync(`${base}-`);
        return createPgliteRecordStore({ dataDir: root });
      },
      async () => {
        if (root) rmSync(root, { recursive: true, force: true });
      },
    );
    continue;
  }
  const { createDatabase, kind } = backend;
  if (!createDatabase) {
    describe(`listExecutions on ${backend.name} — skipped: ${backend.variable} is not set`, () => {
      it.skip(`runs against a real ${backend.name} server when ${backend.variable} is set`, () => undefined);
    });
    continue;
  }
  let database: FreshDatabase | undefined;
  registerListSuite(
    backend.name,
    async () => {
      database = await createDatabase("list_executions");
      return kind === "postgres" ? createPostgresRecordStore({ url: database.url }) : createMongoRecordStore({ url: database.url });
    },
    async () => {
      await database?.drop();
    },
  );
}
