import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { runWithDeadline } from "./run-with-deadline";

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error as AppError).code,
  );

describe("runWithDeadline", () => {
  it("answers the work's result when it finishes in time", async () => {
    expect(await runWithDeadline({ timeoutMs: 1_000 }, 30_000, async (deadline) => deadline.remainingMs() > 0)).toBe(true);
  });

  it("does not start work for an already aborted signal or a zero timeout", async () => {
    let started = false;
    const work = async () => {
      started = true;
    };
    expect(await code(runWithDeadline({ signal: AbortSignal.abort() }, 30_000, work))).toBe("timeout");
    expect(await code(runWithDeadline({ timeoutMs: 0 }, 30_000, work))).toBe("timeout");
    expect(started).toBe(false);
  });

  it("answers timeout at the deadline and aborts the work's signal", async () => {
    let workSignal: AbortSignal | undefined;
    const never = (deadline: { signal: AbortSignal }) => {
      workSignal = deadline.signal;
      return new Promise<never>(() => undefined);
    };
    expect(await code(runWithDeadline({ timeoutMs: 20 }, 30_000, never))).toBe("timeout");
    expect(workSignal?.aborted).toBe(true);
  });

  it("answers timeout when the caller's signal aborts, and uses the default timeout otherwise", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    expect(await code(runWithDeadline({ signal: controller.signal }, 30_000, () => new Promise<never>(() => undefined)))).toBe("timeout");
    expect(await code(runWithDeadline(undefined, 20, () => new Promise<never>(() => undefined)))).toBe("timeout");
  });

  it("answers timeout for work that ends after its deadline (a thread that could not be interrupted)", async () => {
    const busy = async () => {
      const until = performance.now() + 30;
      while (performance.now() < until) {
        // hold the thread, as PGlite does while a statement runs
      }
      return "done";
    };
    expect(await code(runWithDeadline({ timeoutMs: 5 }, 30_000, busy))).toBe("timeout");
  });

  it("passes other errors through and refuses a negative timeout", async () => {
    const failure = new AppError("validation_failed", "x");
    await expect(runWithDeadline({ timeoutMs: 1_000 }, 30_000, async () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await code(runWithDeadline({ timeoutMs: -1 }, 30_000, async () => 1))).toBe("validation_failed");
  });
});
