import { describe, expect, it } from "vitest";
import { createFlowContext } from "@/lib/flow/engine/context";
import { evaluateCheck } from "./evaluate-check";

/** Regression of the condition fuzz (case seed 4115589667): deep equality must not recurse. */
describe("condition checks over values nested thousands of levels deep", () => {
  const nested = (leaf: number): unknown => JSON.parse(`${"[".repeat(20_000)}${leaf}${"]".repeat(20_000)}`);
  const nestedObject = (): unknown => JSON.parse(`${'{"k":'.repeat(20_000)}1${"}".repeat(20_000)}`);
  const context = createFlowContext({
    body: { a: nested(1), b: nested(1), c: nested(2), list: [nested(1)], objects: nestedObject(), same: nestedObject() },
  });

  it("compare equal and unequal structures without overflowing the stack", () => {
    expect(evaluateCheck({ left: "{{body.a}}", operator: "equals", right: "{{body.b}}" }, context)).toBe(true);
    expect(evaluateCheck({ left: "{{body.a}}", operator: "equals", right: "{{body.c}}" }, context)).toBe(false);
    expect(evaluateCheck({ left: "{{body.a}}", operator: "not_equals", right: "{{body.c}}" }, context)).toBe(true);
    expect(evaluateCheck({ left: "{{body.objects}}", operator: "equals", right: "{{body.same}}" }, context)).toBe(true);
    expect(evaluateCheck({ left: "{{body.list}}", operator: "contains", right: "{{body.b}}" }, context)).toBe(true);
  });
});
