import { afterEach, describe, expect, it, vi } from "vitest";
import { createSharedTimeout } from "./shared-timeout";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the functions that settle it. */
function pending<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

class TimedOut extends Error {}

describe("createSharedTimeout", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("settles as the work does when the work is first, and forgets it", async () => {
    const timeout = createSharedTimeout(1_000, () => new TimedOut());
    await expect(timeout.race(Promise.resolve(7))).resolves.toBe(7);
    await expect(timeout.race(Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(timeout.waiting).toBe(0);
  });

  it("rewrites the work's own failure with mapError, but not a success", async () => {
    const timeout = createSharedTimeout(1_000, () => new TimedOut());
    const mapError = (error: unknown) => new Error(`mapped: ${(error as Error).message}`);
    await expect(timeout.race(Promise.reject(new Error("refused")), { mapError })).rejects.toThrow("mapped: refused");
    await expect(timeout.race(Promise.resolve("ok"), { mapError })).resolves.toBe("ok");
  });

  it("rejects with its error once the time is up, tells onTimeout first, and ignores the work's late answer", async () => {
    const timeout = createSharedTimeout(40, () => new TimedOut("too slow"));
    const work = pending<string>();
    const events: string[] = [];
    const raced = timeout.race(work.promise, { onTimeout: () => events.push("timeout") }).then(
      () => events.push("resolved"),
      (error: unknown) => events.push(error instanceof TimedOut ? `rejected: ${error.message}` : "other"),
    );
    await sleep(10);
    expect(events).toEqual([]);
    await raced;
    expect(events).toEqual(["timeout", "rejected: too slow"]);
    work.resolve("late");
    await sleep(5);
    expect(events).toEqual(["timeout", "rejected: too slow"]);
    expect(timeout.waiting).toBe(0);
  });

  it("times out only the work that is late, whatever its place in the line", async () => {
    const timeout = createSharedTimeout(300, () => new TimedOut());
    const works = Array.from({ length: 5 }, () => pending<number>());
    const outcomes = works.map((work) =>
      timeout.race(work.promise).then(
        (value) => `value ${value}`,
        (error: unknown) => (error instanceof TimedOut ? "timed out" : "failed"),
      ),
    );
    works[0]!.resolve(0);
    works[2]!.resolve(2);
    works[4]!.reject(new Error("refused"));
    await sleep(5);
    expect(timeout.waiting).toBe(2);
    // Started later, with a deadline of its own.
    const later = pending<number>();
    await sleep(150);
    const lateOutcome = timeout.race(later.promise).then(
      (value) => `value ${value}`,
      () => "timed out",
    );
    expect(await Promise.all(outcomes)).toEqual(["value 0", "timed out", "value 2", "timed out", "failed"]);
    // The first deadlines have passed; the later work still has about half its time.
    later.resolve(5);
    expect(await lateOutcome).toBe("value 5");
    expect(timeout.waiting).toBe(0);
  });

  it("serves a thousand concurrent operations with one timer at a time", async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const timeout = createSharedTimeout(1_000, () => new TimedOut());
    const works = Array.from({ length: 1_000 }, () => pending<number>());
    const raced = works.map((work) => timeout.race(work.promise));
    expect(setTimeoutSpy).toHaveBeenCalledTimes(1);
    expect(timeout.waiting).toBe(1_000);
    works.forEach((work, index) => work.resolve(index));
    expect(await Promise.all(raced)).toHaveLength(1_000);
    expect(timeout.waiting).toBe(0);
  });

  it("does not keep the process open for its timer", async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const timeout = createSharedTimeout(1_000, () => new TimedOut());
    const work = pending<void>();
    const raced = timeout.race(work.promise);
    const timer = setTimeoutSpy.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    work.resolve();
    await raced;
  });
});
