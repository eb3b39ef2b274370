import { describe, expect, it } from "vitest";
import type { TestRunStep } from "@/lib/endpoints/test-run-endpoint";
import { checkReportsByKey, lastRunContextAt } from "./last-test-run";

const source = {
  steps: [
    { name: "tickets", enabled: true },
    { name: "off", enabled: false },
    { name: "", enabled: true },
    { name: "shape", enabled: true },
  ],
  testOutputs: { tickets: [{ id: "t1" }], off: "stale", shape: { n: 1 } },
  testRequest: { body: { status: "open" }, query: { page: "2" }, user: { id: "usr_1" } },
};

describe("lastRunContextAt", () => {
  it("is null before any test run", () => {
    expect(lastRunContextAt({ steps: source.steps }, 2)).toBeNull();
  });

  it("holds the request, trigger = body, and only earlier enabled steps' outputs", () => {
    expect(lastRunContextAt(source, 3)).toEqual({
      body: { status: "open" },
      query: { page: "2" },
      user: { id: "usr_1" },
      trigger: { status: "open" },
      steps: { tickets: [{ id: "t1" }] },
    });
    expect(lastRunContextAt(source, 0)?.steps).toEqual({});
  });
});

describe("checkReportsByKey", () => {
  it("puts each check's report under the key of the check draft it ran from", () => {
    const passed = { left: { missing: false, text: "1" }, right: null, passed: true };
    const failed = { left: { missing: true, text: "{{body.x}}" }, right: { missing: false, text: '"a"' }, passed: false };
    const results = [
      { index: 0, name: "q", type: "query", status: "ok", durationMs: 1, output: [], error: null },
      { index: 1, name: null, type: "condition", status: "stopped", durationMs: 1, output: null, error: "checks not met", checks: [passed, failed] },
    ] satisfies TestRunStep[];
    const steps = [
      { checks: [] },
      {
        checks: [
          { key: "c-a", left: "", operator: "exists" as const, right: "" },
          { key: "c-b", left: "", operator: "equals" as const, right: "" },
        ],
      },
    ];
    expect(checkReportsByKey(results, steps)).toEqual({ "c-a": passed, "c-b": failed });
  });
});
