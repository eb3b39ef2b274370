import { describe, expect, it } from "vitest";
import { createWriteBatcher } from "./write-batcher";

/** The batching policy alone; batched-inserts.test.ts runs it against PGlite and PostgreSQL. */
function recorder(options: { maxInFlight: number; failBatch?: unknown; gather?: "task" | "event-loop-turn" }) {
  const statements: string[][] = [];
  const pending: Array<() => void> = [];
  const run = (items: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push([...items]);
      pending.push(() => (options.failBatch && items.length > 1 ? reject(options.failBatch) : items.includes("bad") ? reject(new Error(`refused ${items.join()}`)) : resolve()));
    });
  const batcher = createWriteBatcher<string>({
    runAlone: (item) => run([item]),
    runBatch: run,
    failsEveryItem: (error) => error === "database down",
    maxInFlight: options.maxInFlight,
    gather: options.gather,
  });
  const finishNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batcher, statements, finishNext };
}

describe("write batcher", () => {
  it("sends a write at once while the table has statements to spare, and gathers the writes made meanwhile", async () => {
    const { batcher, statements, finishNext } = recorder({ maxInFlight: 1 });
    const first = batcher.add("notes", "a");
    await Promise.resolve();
    expect(statements).toEqual([["a"]]);
    const rest = [batcher.add("notes", "b"), batcher.add("notes", "c")];
    // Another table is not held back by this one's statement.
    const other = batcher.add("tags", "x");
    await new Promise((resolve) => setImmediate(resolve));
    expect(statements).toEqual([["a"], ["x"]]);
    await finishNext();
    await first;
    expect(statements).toEqual([["a"], ["x"], ["b", "c"]]);
    await finishNext();
    await finishNext();
    await Promise.all([...rest, other]);
  });

  it("gathers the writes of a whole event-loop turn when asked to, not only those of one task", async () => {
    const byTask = recorder({ maxInFlight: 1 });
    const byTurn = recorder({ maxInFlight: 1, gather: "event-loop-turn" });
    const writes: Array<Promise<void>> = [];
    for (const { batcher } of [byTask, byTurn]) {
      writes.push(batcher.add("notes", "a"));
      // Another request's write, made by a later task of the same turn.
      await Promise.resolve();
      writes.push(batcher.add("notes", "b"));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(byTask.statements).toEqual([["a"]]);
    expect(byTurn.statements).toEqual([["a", "b"]]);
    await byTask.finishNext();
    await byTask.finishNext();
    await byTurn.finishNext();
    await Promise.all(writes);
    expect(byTask.statements).toEqual([["a"], ["b"]]);
  });

  it("runs each write of a refused batch alone, so that only the faulty one fails", async () => {
    const { batcher, statements, finishNext } = recorder({ maxInFlight: 1, failBatch: new Error("unique violation") });
    const blocker = batcher.add("notes", "first");
    await Promise.resolve();
    const results = [batcher.add("notes", "ok-1"), batcher.add("notes", "bad"), batcher.add("notes", "ok-2")].map((promise) =>
      promise.then(
        () => "stored",
        () => "refused",
      ),
    );
    await finishNext();
    await blocker;
    await finishNext();
    for (let index = 0; index < 3; index++) await finishNext();
    expect(await Promise.all(results)).toEqual(["stored", "refused", "stored"]);
    expect(statements).toEqual([["first"], ["ok-1", "bad", "ok-2"], ["ok-1"], ["bad"], ["ok-2"]]);
  });

  it("answers every write of a batch with the error when the database is down", async () => {
    const { batcher, finishNext } = recorder({ maxInFlight: 1, failBatch: "database down" });
    const blocker = batcher.add("notes", "first");
    await Promise.resolve();
    const results = [batcher.add("notes", "a"), batcher.add("notes", "b")].map((promise) => promise.catch((error: unknown) => error));
    await finishNext();
    await blocker;
    await finishNext();
    expect(await Promise.all(results)).toEqual(["database down", "database down"]);
  });
});
