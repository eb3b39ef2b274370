import { describe, expect, it } from "vitest";
import { createRunBudget } from "./budget";

function abortedWithin(signal: AbortSignal): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(performance.now() - started), { once: true }));
}

describe("run budget", () => {
  it("counts down and reports when it is used up", async () => {
    const budget = createRunBudget({ totalMs: 60 });
    expect(budget.totalMs).toBe(60);
    expect(budget.remainingMs()).toBeGreaterThan(0);
    expect(budget.stopReason()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(budget.remainingMs()).toBe(0);
    expect(budget.stopReason()?.message).toBe("run time budget of 60 ms exhausted");
  });

  it("defaults to 30 seconds", () => {
    expect(createRunBudget().totalMs).toBe(30_000);
  });

  it("a step's signal fires at what is left of the run when that is smaller than its own limit; that ends the run", async () => {
    const budget = createRunBudget({ totalMs: 100 });
    const step = budget.openStepSignal(10_000);
    await abortedWithin(step.signal);
    expect(step.signal.reason.message).toBe("run time budget of 100 ms exhausted");
    expect(step.endsRun).toBe(true);
    step.dispose();
  });

  it("a step's own smaller limit fires first and does not end the run", async () => {
    const budget = createRunBudget({ totalMs: 10_000 });
    const step = budget.openStepSignal(50);
    await abortedWithin(step.signal);
    expect(step.signal.reason.message).toBe("step timed out after 50 ms");
    expect(step.endsRun).toBe(false);
    step.dispose();
  });

  it("the caller's signal aborts open steps and ends the run", async () => {
    const caller = new AbortController();
    const budget = createRunBudget({ totalMs: 10_000, signal: caller.signal });
    const step = budget.openStepSignal();
    caller.abort();
    expect(step.signal.aborted).toBe(true);
    expect(step.signal.reason.message).toBe("run was cancelled");
    expect(step.endsRun).toBe(true);
    expect(budget.stopReason()?.message).toBe("run was cancelled");
    step.dispose();
  });

  it("a disposed step signal never fires", async () => {
    const budget = createRunBudget({ totalMs: 30 });
    const step = budget.openStepSignal();
    step.dispose();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(step.signal.aborted).toBe(false);
  });
});
