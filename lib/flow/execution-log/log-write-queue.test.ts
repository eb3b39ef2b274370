import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newId } from "@/lib/ids";
import { closeAllRecordStores, getRecordStore } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";
import { getExecutionOrThrow } from "./get-execution-or-throw";
import { queueExecutionLogEntry } from "./log-write-queue";
import { SUMMARY_NOTE } from "./summarize-execution-log-entry";
import { buildExecutionLogEntry } from "./write-execution-log";

let store: RecordStore;

beforeAll(async () => {
  store = getRecordStore({ projectId: newId("project"), kind: "local" });
  await store.insert(EXECUTIONS_COLLECTION, { note: "creates the collection" });
});
afterAll(closeAllRecordStores);

function entry(): ExecutionLogEntry {
  return buildExecutionLogEntry({
    executionId: newId("execution"),
    source: { type: "endpoint", endpointId: "ep_queue", method: "POST", slug: "s" },
    startedAt: new Date(),
    run: null,
    httpStatus: 201,
    request: { query: { a: "1" }, body: { n: 1 } },
  });
}

/** The record store's AppError as another copy of lib/errors.ts builds it (another bundle's). */
async function foreignAppError(code: "validation_failed" | "internal" | "unavailable", message: string): Promise<Error> {
  vi.resetModules();
  const foreign = await import("@/lib/errors");
  return new foreign.AppError(code, message);
}

interface Calls {
  insertMany: number;
  insert: number;
}

/** The real store with insertMany (and, when given, insert) failing as a test needs. */
function failingStore(batchError: unknown, refuseAlone?: (document: Record<string, unknown>) => unknown): { store: RecordStore; calls: Calls } {
  const calls: Calls = { insertMany: 0, insert: 0 };
  return {
    calls,
    store: {
      ...store,
      async insertMany() {
        calls.insertMany += 1;
        throw batchError;
      },
      async insert(collection, document, options) {
        calls.insert += 1;
        const refusal = refuseAlone?.(document);
        if (refusal !== undefined) throw refusal;
        return store.insert(collection, document, options);
      },
    },
  };
}

async function storedEntries(entries: ExecutionLogEntry[]): Promise<ExecutionLogEntry[]> {
  return Promise.all(entries.map((item) => getExecutionOrThrow({ store, executionId: item.id })));
}

describe("a batch the database refuses", () => {
  const errorsOfAnyClass: Array<[string, () => Promise<unknown>]> = [
    ["a plain object with the code", async () => ({ code: "validation_failed", message: "some documents cannot be stored" })],
    ["an AppError of another copy of the module", () => foreignAppError("validation_failed", "some documents cannot be stored")],
    ["an internal AppError of another copy (a driver refusal)", () => foreignAppError("internal", "the database query failed")],
    ["an error without a code", async () => new Error("something else")],
  ];

  it.each(errorsOfAnyClass)("is written entry by entry whatever the error's class: %s", async (_label, makeError) => {
    const failing = failingStore(await makeError());
    const entries = [entry(), entry(), entry()];
    const results = await Promise.all(entries.map((item) => queueExecutionLogEntry(failing.store, "prj_q", item)));
    expect(results).toEqual([true, true, true]);
    expect(failing.calls).toEqual({ insertMany: 1, insert: 3 });
    const stored = await storedEntries(entries);
    expect(stored.map((item) => item.note)).toEqual([undefined, undefined, undefined]);
    expect(stored.map((item) => item.request?.query)).toEqual([{ a: "1" }, { a: "1" }, { a: "1" }]);
  });

  it("keeps an entry refused even alone as its summary, and the others whole", async () => {
    const entries = [entry(), entry(), entry()];
    const refused = entries[1]!;
    const failing = failingStore(await foreignAppError("validation_failed", "some documents cannot be stored"), (document) =>
      document.id === refused.id && document.note === undefined ? { code: "validation_failed", message: "the document cannot be stored" } : undefined,
    );
    const results = await Promise.all(entries.map((item) => queueExecutionLogEntry(failing.store, "prj_q", item)));
    expect(results).toEqual([true, true, true]);
    const [first, summary, last] = await storedEntries(entries);
    expect(first!.note).toBeUndefined();
    expect(last!.note).toBeUndefined();
    expect(summary).toEqual({
      id: refused.id,
      source: "endpoint",
      endpointId: "ep_queue",
      automationId: null,
      method: "POST",
      slug: "s",
      trigger: null,
      attempt: null,
      retryOf: null,
      startedAt: refused.startedAt,
      durationMs: 0,
      outcome: "failed",
      httpStatus: 201,
      error: null,
      steps: [],
      request: null,
      note: SUMMARY_NOTE,
    });
  });

  it("of one entry goes straight to the summary (the entry was already tried alone)", async () => {
    const single = entry();
    const failing = failingStore({ code: "internal", message: "the database query failed" });
    expect(await queueExecutionLogEntry(failing.store, "prj_q", single)).toBe(true);
    expect(failing.calls).toEqual({ insertMany: 1, insert: 1 });
    expect((await getExecutionOrThrow({ store, executionId: single.id })).note).toBe(SUMMARY_NOTE);
  });

  it("counts an entry an earlier partial write already stored as written (its id is taken)", async () => {
    const entries = [entry(), entry()];
    const calls = { insert: 0 };
    // MongoDB stores a batch in order and stops at the first problem: the first entry is in.
    const partial: RecordStore = {
      ...store,
      async insertMany(collection, documents, options) {
        await store.insert(collection, documents[0]!, options);
        throw { code: "validation_failed", message: "the second is refused" };
      },
      async insert(collection, document, options) {
        calls.insert += 1;
        return store.insert(collection, document, options);
      },
    };
    const results = await Promise.all(entries.map((item) => queueExecutionLogEntry(partial, "prj_q", item)));
    expect(results).toEqual([true, true]);
    expect(calls.insert).toBe(2);
    expect((await storedEntries(entries)).map((item) => item.note)).toEqual([undefined, undefined]);
  });

  it("answers false, without a write per entry, when the database is down (whatever the error's class)", async () => {
    const failing = failingStore(await foreignAppError("unavailable", "the database is unavailable"));
    const results = await Promise.all([entry(), entry(), entry()].map((item) => queueExecutionLogEntry(failing.store, "prj_q", item)));
    expect(results).toEqual([false, false, false]);
    expect(failing.calls).toEqual({ insertMany: 1, insert: 0 });
  });

  it("stops writing entry by entry once the database goes down in the middle", async () => {
    const failing = failingStore({ code: "validation_failed", message: "refused" }, () => ({ code: "timeout", message: "timed out" }));
    const results = await Promise.all([entry(), entry(), entry()].map((item) => queueExecutionLogEntry(failing.store, "prj_q", item)));
    expect(results).toEqual([false, false, false]);
    expect(failing.calls).toEqual({ insertMany: 1, insert: 1 });
  });

  it("answers false for an entry whose summary is refused too", async () => {
    const failing = failingStore({ code: "validation_failed", message: "refused" }, () => ({ code: "validation_failed", message: "refused" }));
    expect(await queueExecutionLogEntry(failing.store, "prj_q", entry())).toBe(false);
    expect(failing.calls).toEqual({ insertMany: 1, insert: 1 });
  });
});

describe("gathering", () => {
  it("writes an entry queued in a later turn of the event loop in the same statement as the first", async () => {
    const statements: number[] = [];
    const counting: RecordStore = {
      ...store,
      async insertMany(collection, documents, options) {
        statements.push(documents.length);
        return store.insertMany(collection, documents, options);
      },
    };
    const [first, second] = [entry(), entry()];
    const firstWritten = queueExecutionLogEntry(counting, "prj_q", first);
    // Until 2026-12-06 an idle queue wrote at the end of the turn, and these were two statements.
    await new Promise((resolve) => setImmediate(resolve));
    const secondWritten = queueExecutionLogEntry(counting, "prj_q", second);
    expect(await Promise.all([firstWritten, secondWritten])).toEqual([true, true]);
    expect(statements).toEqual([2]);
    expect((await storedEntries([first, second])).map((item) => item.id)).toEqual([first.id, second.id]);
  });
});
