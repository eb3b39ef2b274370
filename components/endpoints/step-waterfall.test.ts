import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ExecutionStepLog } from "@/lib/flow/execution-log/execution-log-entry";
import { StepWaterfall, waterfallRows } from "./step-waterfall";

const step = (index: number, durationMs: number, status: ExecutionStepLog["status"] = "ok", name: string | null = null): ExecutionStepLog => ({
  index,
  name,
  type: index === 1 ? "transform" : "query",
  status,
  durationMs,
  error: null,
  outputPreview: null,
});

describe("step waterfall", () => {
  it("starts each step where the ones before it ended", () => {
    const rows = waterfallRows([step(0, 12), step(1, 3), step(2, 0, "skipped"), step(3, 25)]);
    expect(rows.map((row) => row.startMs)).toEqual([0, 12, 15, 15]);
  });

  it("draws bars offset by their start and sized by their duration on the run's scale, each with its words beside it", () => {
    const html = renderToStaticMarkup(createElement(StepWaterfall, { steps: [step(0, 30, "ok", "tickets"), step(1, 10, "failed"), step(2, 0, "skipped")], totalMs: 50 }));
    expect(html).toContain("left:0.00%;width:60.00%");
    expect(html).toContain("left:60.00%;width:20.00%");
    expect(html).toContain("1. Query records (steps.tickets)");
    expect(html).toContain("ok · 30 ms, from 0 ms");
    expect(html).toContain("failed · 10 ms, from 30 ms");
    expect(html).toContain("skipped");
    // A skipped step has no bar; the bars themselves are hidden from assistive technology.
    expect(html.match(/aria-hidden="true"/g)?.length).toBe(4);
    expect(html).toContain("on a scale of 50 ms");
  });
});
