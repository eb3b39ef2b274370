import { describe, expect, it } from "vitest";
import { automationJobId, type AutomationJob } from "./automation-job";
import { isRecordEventRun, packBatch, unpackBatch } from "./automation-batch";

function run(eventId: string, automationId: string, queuedAt: string, overrides: Partial<AutomationJob> = {}): AutomationJob {
  return {
    id: automationJobId("record", eventId, automationId),
    projectId: "prj_batch",
    automationId,
    triggerType: "record",
    trigger: { event: "create", schema: "tickets", record: { id: `rec_${eventId}`, title: "Printer on fire" }, previous: null },
    executionId: `exe_${eventId}_${automationId}`,
    queuedAt,
    retry: { attempts: 0, backoffSeconds: 30 },
    ...overrides,
  };
}

describe("automation batches", () => {
  const runs = [
    run("evt_1", "aut_a", "2026-12-06T07:00:00.000Z"),
    run("evt_1", "aut_b", "2026-12-06T07:00:00.000Z", { retry: { attempts: 3, backoffSeconds: 5 } }),
    run("evt_2", "aut_a", "2026-12-06T07:00:00.004Z", {
      trigger: { event: "update", schema: "orders", record: { id: "rec_2", n: 2 }, previous: { id: "rec_2", n: 1 } },
    }),
  ];

  it("stores what the runs share once and gives every run back whole, in order", () => {
    const batch = packBatch(runs);
    expect(batch.projectId).toBe("prj_batch");
    expect(batch.automations).toEqual([
      { id: "aut_a", retry: { attempts: 0, backoffSeconds: 30 } },
      { id: "aut_b", retry: { attempts: 3, backoffSeconds: 5 } },
    ]);
    expect(batch.runs.map((packed) => [packed.eventId, packed.automation, packed.queuedAfter])).toEqual([
      ["evt_1", 0, 0],
      ["evt_1", 1, 0],
      ["evt_2", 0, 4],
    ]);
    // What Redis keeps is the JSON: the round trip through it loses nothing.
    expect(unpackBatch(JSON.parse(JSON.stringify(batch)) as ReturnType<typeof packBatch>)).toEqual(runs);
  });

  it("is at most 70 % of the JSON of the whole jobs it holds", () => {
    const many = Array.from({ length: 16 }, (_, index) => {
      const eventId = `evt_01JEXAMPLEEVENT${String(index).padStart(10, "0")}`;
      const record = {
        id: `rec_01JEXAMPLERECORD${index}`,
        n: index,
        label: `event ${index}: order shipped`,
        createdAt: "2026-12-06T07:00:00.000Z",
        updatedAt: "2026-12-06T07:00:00.000Z",
      };
      return run(eventId, "aut_01JEXAMPLEAUTOMATION0000", "2026-12-06T07:00:00.000Z", {
        projectId: "prj_01JEXAMPLEPROJECT000000",
        executionId: `exe_01JEXAMPLEEXECUTION${index}`,
        trigger: { event: "create", schema: "events", record, previous: null },
      });
    });
    expect(JSON.stringify(packBatch(many)).length).toBeLessThan(JSON.stringify({ runs: many }).length * 0.7);
  });

  it("keeps each run's retry policy when an automation's changed between two runs of the batch", () => {
    const edited = [run("evt_1", "aut_a", "2026-12-06T07:00:00.000Z"), run("evt_2", "aut_a", "2026-12-06T07:00:00.001Z", { retry: { attempts: 2, backoffSeconds: 1 } })];
    expect(unpackBatch(packBatch(edited)).map((unpacked) => unpacked.retry)).toEqual([
      { attempts: 0, backoffSeconds: 30 },
      { attempts: 2, backoffSeconds: 1 },
    ]);
  });

  it("still reads batches of whole jobs, as queued before batches were packed", () => {
    expect(unpackBatch({ runs })).toBe(runs);
  });

  it("refuses runs it could not give back whole: another project's, or another kind of trigger's", () => {
    expect(() => packBatch([runs[0]!, { ...runs[2]!, projectId: "prj_other" }])).toThrow("one project");
    expect(() => packBatch([{ ...runs[0]!, id: "form-sub_1-aut_a", triggerType: "form" }])).toThrow("record event runs");
    expect(() => packBatch([])).toThrow("at least one run");
  });

  it("tells which runs may go in a batch: record event runs whose id names their automation", () => {
    expect(isRecordEventRun(runs[0]!)).toBe(true);
    expect(isRecordEventRun({ ...runs[0]!, automationId: "aut_other" })).toBe(false);
    expect(isRecordEventRun({ ...runs[0]!, triggerType: "manual", id: "manual-exe_1-aut_a" })).toBe(false);
  });
});
