import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordStore } from "../record-store";
import type { SqlExecutor } from "./sql-executor";
import { createSqlRecordStore } from "./sql-record-store";
import { qualifiedTable } from "./table-names";
import { sqlExecutorBackends } from "../testing/sql-executor-backends";

// A collection written and deleted from all the time (the automation outbox) grows by every deleted
// record on a database without autovacuum (PGlite, or a server with it off) unless the store gives
// that space back. Sizes are the table's own pages, read from the database.

const backends = sqlExecutorBackends("reclaim_space");
const RECORDS = 200;
const PADDING = "x".repeat(800);

describe.each(backends)("reclaiming deleted space on $name", (backend) => {
  let executor: SqlExecutor;
  let store: RecordStore;

  beforeAll(async () => {
    executor = await backend.open();
    store = createSqlRecordStore({ executor, kind: backend.kind });
  });

  afterAll(async () => {
    await store?.close();
    await backend.cleanup();
  });

  async function tableBytes(collection: string): Promise<number> {
    const result = await executor.query(`SELECT pg_relation_size('${qualifiedTable(collection)}') AS bytes`, [], new AbortController().signal);
    return Number(result.rows[0]?.bytes);
  }

  /** Writes a batch of records and deletes them all, as a stream of outbox entries does. */
  async function churn(collection: string): Promise<void> {
    const written = await store.insertMany(
      collection,
      Array.from({ length: RECORDS }, (_, n) => ({ n, padding: PADDING })),
    );
    await store.deleteMany(collection, [{ field: "id", op: "in", value: written.map((record) => record.id) }]);
  }

  it("reuses the space of deleted records once reclaimed, where without it the table grows", async () => {
    await churn("kept_lean");
    const afterFirst = await tableBytes("kept_lean");
    expect(afterFirst).toBeGreaterThan(0);
    await store.reclaimDeletedSpace("kept_lean");
    await churn("kept_lean");
    expect(await tableBytes("kept_lean")).toBeLessThanOrEqual(afterFirst);

    // On a server whose autovacuum is on, it must not come round between the two passes.
    await store.insert("left_alone", { n: -1 });
    if (backend.kind === "postgres") await executor.query(`ALTER TABLE ${qualifiedTable("left_alone")} SET (autovacuum_enabled = off)`, [], new AbortController().signal);
    await churn("left_alone");
    const leftAfterFirst = await tableBytes("left_alone");
    await churn("left_alone");
    expect(await tableBytes("left_alone")).toBeGreaterThan(leftAfterFirst * 1.5);
  });

  it("keeps the live records, and answers for a collection that does not exist", async () => {
    const kept = await store.insert("partly_deleted", { n: 1 });
    await churn("partly_deleted");
    await store.reclaimDeletedSpace("partly_deleted");
    expect(await store.find("partly_deleted")).toEqual([kept]);
    await expect(store.reclaimDeletedSpace("never_written")).resolves.toBeUndefined();
  });
});
