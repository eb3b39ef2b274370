import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordStore } from "../record-store";
import type { SqlExecutor } from "./sql-executor";
import { createSqlRecordStore } from "./sql-record-store";
import { sqlExecutorBackends } from "../testing/sql-executor-backends";

// Concurrent inserts share a statement (lib/batching/write-batcher.ts). The contract suite proves that single
// inserts answer as before; this proves that concurrent ones are batched, and that a batch answers
// each caller as its insert alone would have.

const backends = sqlExecutorBackends("batched_inserts");

describe.each(backends)("batched inserts on $name", (backend) => {
  let executor: SqlExecutor;
  let store: RecordStore;

  beforeAll(async () => {
    executor = await backend.open();
    store = createSqlRecordStore({ executor, kind: backend.kind });
    await store.insert("notes", { text: "creates the table" });
    await store.ensureUniqueIndex("notes", "code");
  });

  afterAll(async () => {
    await store?.close();
    await backend.cleanup();
  });

  it("stores the inserts of one turn with one statement and answers each its own record", async () => {
    const before = store.metrics.queries;
    const written = await Promise.all(Array.from({ length: 25 }, (_, n) => store.insert("notes", { text: `note ${n}`, n })));
    expect(store.metrics.queries - before).toBe(1);
    expect(new Set(written.map((record) => record.id)).size).toBe(25);
    expect(written.map((record) => record.n)).toEqual(Array.from({ length: 25 }, (_, n) => n));
    const stored = await store.findByIds(
      "notes",
      written.map((record) => record.id),
    );
    expect(stored).toEqual(written);
  });

  it("answers a unique violation to its own caller only; the others of the batch are stored", async () => {
    const results = await Promise.allSettled([
      store.insert("notes", { text: "first", code: "A-1" }),
      store.insert("notes", { text: "taken", code: "A-1" }),
      store.insert("notes", { text: "third", code: "A-3" }),
    ]);
    // The failed batch's inserts run again alone and at once: on a pool with several connections open,
    // either of the two A-1 inserts may be stored first, as with two concurrent requests.
    const [first, taken, third] = results;
    expect(third?.status).toBe("fulfilled");
    expect([first?.status, taken?.status].sort()).toEqual(["fulfilled", "rejected"]);
    const refused = ([first, taken].find((result) => result?.status === "rejected") as PromiseRejectedResult).reason as { code: string; field?: string };
    expect(refused).toMatchObject({ code: "unique_violation", field: "code" });
    expect(await store.count("notes", { where: [{ field: "code", op: "in", value: ["A-1", "A-3"] }] })).toBe(2);
  });

  it("writes each record's outbox entry with it, batched, and creates both tables on first use", async () => {
    const written = await Promise.all(
      ["a", "b", "c"].map((name, n) =>
        store.insert("orders", { name }, { outbox: { collection: "_outbox_test", id: `evt_batch_${n}`, event: { type: "create", schema: "orders" } } }),
      ),
    );
    const entries = await store.find("_outbox_test", { sort: [{ field: "id", direction: "asc" }] });
    expect(entries.map((entry) => entry.id)).toEqual(["evt_batch_0", "evt_batch_1", "evt_batch_2"]);
    expect(entries.map((entry) => entry.record)).toEqual(written);
    expect(entries[0]).toMatchObject({ event: { type: "create", schema: "orders" }, previous: null });
    expect(typeof entries[0]!.createdAt).toBe("string");
  });

  it("stores neither a record nor its entry when its outbox id is taken, and the rest of the batch as usual", async () => {
    const results = await Promise.allSettled(
      ["dup", "fresh"].map((name, n) =>
        store.insert("orders", { name }, { outbox: { collection: "_outbox_test", id: n === 0 ? "evt_batch_0" : "evt_batch_9", event: { type: "create" } } }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    expect(await store.count("orders", { where: [{ field: "name", op: "eq", value: "dup" }] })).toBe(0);
    expect(await store.count("orders", { where: [{ field: "name", op: "eq", value: "fresh" }] })).toBe(1);
  });
});
