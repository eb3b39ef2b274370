import { describe, expect, it } from "vitest";
import { pendingAfterResponseWork, runAfterResponse, settleAfterResponseWork, trackAfterResponse, waitUntil } from "./after-response";

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("after-response work", () => {
  it("is tracked until it settles, failures included, and never rejects", async () => {
    const ok = deferred();
    const failing = deferred();
    waitUntil(ok.promise);
    const tracked = trackAfterResponse(failing.promise, "test task");
    expect(pendingAfterResponseWork()).toBe(2);
    failing.reject(new Error("boom"));
    await expect(tracked).resolves.toBeUndefined();
    ok.resolve();
    expect(await settleAfterResponseWork()).toBe(true);
    expect(pendingAfterResponseWork()).toBe(0);
  });

  it("runs work after the current task, and settling waits for work started meanwhile", async () => {
    const order: string[] = [];
    runAfterResponse("first", async () => {
      order.push("first");
      runAfterResponse("second", async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push("second");
      });
    });
    runAfterResponse("thrower", () => {
      throw new Error("sync failure");
    });
    order.push("answered");
    expect(await settleAfterResponseWork()).toBe(true);
    expect(order).toEqual(["answered", "first", "second"]);
  });

  it("stops waiting at the timeout and says work is left", async () => {
    const stuck = deferred();
    waitUntil(stuck.promise);
    const startedAt = Date.now();
    expect(await settleAfterResponseWork(50)).toBe(false);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(pendingAfterResponseWork()).toBe(1);
    stuck.resolve();
    expect(await settleAfterResponseWork()).toBe(true);
  });
});
