import { describe, expect, it } from "vitest";
import { newStepDraft, type StepDraft } from "./endpoint-draft";
import { isStepResultStale, lastRunStaleness, snapshotTestRun } from "./last-run-staleness";

function query(name: string): StepDraft {
  const draft = newStepDraft("query");
  return { ...draft, name, settings: { ...draft.settings, schema: "tickets" } };
}

function condition(...checks: [key: string, left: string, right: string][]): StepDraft {
  return { ...newStepDraft("condition"), checks: checks.map(([key, left, right]) => ({ key, left, operator: "equals" as const, right })) };
}

function transform(name: string, expression: string): StepDraft {
  const draft = newStepDraft("transform");
  return { ...draft, name, settings: { ...draft.settings, expression } };
}

const tickets = query("tickets");
const gate = condition(["c-1", "{{body.want}}", "open"], ["c-2", "{{steps.tickets.length}}", "2"]);
const shape = transform("shape", "steps.tickets[].id");
const ran = [tickets, gate, shape];

describe("which results of the last test run predate an edit", () => {
  it("finds nothing stale while the draft is the one that ran, moved keys or not", () => {
    const staleness = lastRunStaleness(snapshotTestRun(ran), ran);
    expect(staleness.editedSteps.size).toBe(0);
    expect(staleness.staleChecks.size).toBe(0);
    expect(staleness.earlierStepsChanged).toEqual([false, false, false]);
  });

  it("marks an edited check stale, but not its untouched sibling", () => {
    const edited = { ...gate, checks: gate.checks.map((check) => (check.key === "c-1" ? { ...check, right: "closed" } : check)) };
    const staleness = lastRunStaleness(snapshotTestRun(ran), [tickets, edited, shape]);
    expect([...staleness.staleChecks]).toEqual(["c-1"]);
    expect(isStepResultStale(staleness, gate.key, 1)).toBe(true);
    // The transform ran after the edited condition, whose new verdict could stop the flow before it.
    expect(isStepResultStale(staleness, shape.key, 2)).toBe(true);
    expect(isStepResultStale(staleness, tickets.key, 0)).toBe(false);
  });

  it("marks every check and later result stale after an edit to an earlier step", () => {
    const editedQuery = { ...tickets, settings: { ...tickets.settings, limit: "5" } };
    const staleness = lastRunStaleness(snapshotTestRun(ran), [editedQuery, gate, shape]);
    expect([...staleness.staleChecks].sort()).toEqual(["c-1", "c-2"]);
    expect(staleness.earlierStepsChanged).toEqual([false, true, true]);
    expect([...staleness.editedSteps]).toEqual([tickets.key]);
  });

  it("treats reordering, removing and disabling earlier steps as changes", () => {
    const snapshot = snapshotTestRun(ran);
    // Order matters: the condition now runs before the query it read, and could stop the flow earlier.
    expect(lastRunStaleness(snapshot, [gate, tickets, shape]).earlierStepsChanged).toEqual([true, true, true]);
    expect(lastRunStaleness(snapshot, [gate, shape]).earlierStepsChanged).toEqual([true, true]);
    expect(lastRunStaleness(snapshot, [{ ...tickets, enabled: false }, gate, shape]).staleChecks.size).toBe(2);
  });

  it("keeps results fresh when a step is only appended, and calls the new step edited", () => {
    const added = transform("count", "length(steps.tickets)");
    const staleness = lastRunStaleness(snapshotTestRun(ran), [...ran, added]);
    expect(staleness.earlierStepsChanged).toEqual([false, false, false, false]);
    expect(staleness.staleChecks.size).toBe(0);
    expect([...staleness.editedSteps]).toEqual([added.key]);
  });

  it("does not count whitespace the API trims from an output name as an edit", () => {
    const staleness = lastRunStaleness(snapshotTestRun(ran), [{ ...tickets, name: "tickets " }, gate, shape]);
    expect(staleness.editedSteps.size).toBe(0);
  });

  it("says nothing is stale before any test run", () => {
    expect(isStepResultStale(undefined, tickets.key, 0)).toBe(false);
  });
});
