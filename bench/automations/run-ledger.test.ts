import { describe, expect, it } from "vitest";
import { completedRuns } from "./run-ledger";

describe("completedRuns", () => {
  it("makes each row a completed first attempt and counts the copies per record", () => {
    const { runs, copiesPerRecord } = completedRuns([
      { recordId: "1", startedAt: 1_000 },
      { recordId: "2", startedAt: 1_005 },
      { recordId: "1", startedAt: 1_009 },
    ]);
    expect(runs[0]).toEqual({ recordId: "1", startedAt: 1_000, endedAt: 1_000, outcome: "completed", attempt: 1, retryOf: null, afterInterruption: false });
    expect(runs.map((run) => run.recordId)).toEqual(["1", "2", "1"]);
    expect([...copiesPerRecord]).toEqual([
      ["1", 2],
      ["2", 1],
    ]);
  });
});
