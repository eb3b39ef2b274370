import { describe, expect, it } from "vitest";
import { createFlowContext, type FlowContext } from "@/lib/flow/engine/context";
import { FlowStop, type StepRunContext } from "@/lib/flow/engine/step-runner";
import { parseFlowOrThrow, validateFlow, type FlowStepInput, type FlowStepOf } from "@/lib/flow/flow-definition";
import type { ConditionCheck } from "./definition";
import { evaluateCheck } from "./evaluate-check";
import { CONDITION_NOT_MET_BODY, runCondition } from "./run";

const context: FlowContext = (() => {
  const ctx = createFlowContext({
    body: {
      status: "open",
      count: 10,
      countText: "10",
      nine: "9",
      price: 9.5,
      active: true,
      nothing: null,
      empty: "",
      tags: ["urgent", "billing", 3],
      meta: { source: "web" },
      title: "Printer on fire",
    },
  });
  ctx.steps.tickets = [{ id: "t1" }, { id: "t2" }];
  return ctx;
})();

function check(left: ConditionCheck["left"], operator: ConditionCheck["operator"], right?: ConditionCheck["right"]): boolean {
  return evaluateCheck({ left, operator, right }, context);
}

function conditionStep(settings: Omit<Extract<FlowStepInput, { type: "condition" }>, "type">): FlowStepOf<"condition"> {
  const [step] = parseFlowOrThrow([{ type: "condition", ...settings }]);
  return step as FlowStepOf<"condition">;
}

function stepContext(ctx: FlowContext): StepRunContext {
  return { context: ctx, services: {}, index: 0, name: null, signal: new AbortController().signal };
}

describe("condition checks: equals and not_equals", () => {
  it("compares strings and typed values", () => {
    expect(check("{{body.status}}", "equals", "open")).toBe(true);
    expect(check("{{body.status}}", "equals", "closed")).toBe(false);
    expect(check("{{body.status}}", "not_equals", "closed")).toBe(true);
    expect(check("{{body.active}}", "equals", true)).toBe(true);
    expect(check("{{body.active}}", "equals", "true")).toBe(true);
    expect(check("{{body.nothing}}", "equals", null)).toBe(true);
  });

  it("a number equals the typed number and a numeric string of the same value", () => {
    expect(check("{{body.count}}", "equals", "10")).toBe(true);
    expect(check("{{body.count}}", "equals", 10)).toBe(true);
    expect(check("{{body.count}}", "equals", "{{body.countText}}")).toBe(true);
    expect(check("{{body.count}}", "equals", "10.0")).toBe(true);
    expect(check("{{body.count}}", "equals", "11")).toBe(false);
  });

  it("compares arrays and objects deeply", () => {
    expect(check("{{body.meta}}", "equals", "{{body.meta}}")).toBe(true);
    expect(check("{{steps.tickets.length}}", "equals", 2)).toBe(true);
  });

  it("a missing operand equals nothing, so not_equals holds", () => {
    expect(check("{{body.missing}}", "equals", "{{body.missing}}")).toBe(false);
    expect(check("{{body.missing}}", "equals", null)).toBe(false);
    expect(check("{{body.missing}}", "not_equals", "open")).toBe(true);
  });
});

describe("condition checks: greater_than and less_than", () => {
  it("compare numerically when both sides are numbers", () => {
    expect(check("{{body.count}}", "greater_than", 9)).toBe(true);
    expect(check("{{body.count}}", "greater_than", "9")).toBe(true);
    expect(check("{{body.price}}", "less_than", "10")).toBe(true);
    expect(check("{{body.count}}", "less_than", "{{body.price}}")).toBe(false);
    expect(check("{{steps.tickets.length}}", "greater_than", 1)).toBe(true);
  });

  it("a numeric string facing a number counts as a number", () => {
    expect(check("{{body.countText}}", "greater_than", 9)).toBe(true);
  });

  it("two strings compare as strings, so '10' < '9'", () => {
    expect(check("{{body.countText}}", "greater_than", "{{body.nine}}")).toBe(false);
    expect(check("{{body.countText}}", "less_than", "{{body.nine}}")).toBe(true);
    expect(check("{{body.status}}", "greater_than", "closed")).toBe(true);
  });

  it("anything else is false, both ways", () => {
    expect(check("{{body.meta}}", "greater_than", 1)).toBe(false);
    expect(check("{{body.meta}}", "less_than", 1)).toBe(false);
    expect(check("{{body.missing}}", "greater_than", 1)).toBe(false);
    expect(check("{{body.missing}}", "less_than", 1)).toBe(false);
    expect(check("{{body.nothing}}", "less_than", 1)).toBe(false);
    expect(check("{{body.status}}", "greater_than", 1)).toBe(false);
  });
});

describe("condition checks: contains", () => {
  it("finds substrings in strings (case-sensitive)", () => {
    expect(check("{{body.title}}", "contains", "fire")).toBe(true);
    expect(check("{{body.title}}", "contains", "Fire")).toBe(false);
    expect(check("{{body.title}}", "contains", "water")).toBe(false);
  });

  it("finds elements in arrays, with the equals rules", () => {
    expect(check("{{body.tags}}", "contains", "billing")).toBe(true);
    expect(check("{{body.tags}}", "contains", "3")).toBe(true);
    expect(check("{{body.tags}}", "contains", "bill")).toBe(false);
  });

  it("finds own keys in objects, never inherited ones", () => {
    expect(check("{{body.meta}}", "contains", "source")).toBe(true);
    expect(check("{{body.meta}}", "contains", "constructor")).toBe(false);
  });

  it("is false for missing or scalar left operands", () => {
    expect(check("{{body.missing}}", "contains", "x")).toBe(false);
    expect(check("{{body.count}}", "contains", "1")).toBe(false);
  });
});

describe("condition checks: exists and not_exists", () => {
  it("a present value exists, even an empty string, false or 0", () => {
    expect(check("{{body.status}}", "exists")).toBe(true);
    expect(check("{{body.empty}}", "exists")).toBe(true);
    expect(check("{{body.tags}}", "exists")).toBe(true);
  });

  it("null and missing do not exist", () => {
    expect(check("{{body.nothing}}", "exists")).toBe(false);
    expect(check("{{body.missing}}", "exists")).toBe(false);
    expect(check("{{body.missing}}", "not_exists")).toBe(true);
    expect(check("{{body.nothing}}", "not_exists")).toBe(true);
    expect(check("{{body.status}}", "not_exists")).toBe(false);
  });

  it("inherited names do not exist", () => {
    expect(check("{{body.constructor}}", "exists")).toBe(false);
    expect(check("{{body.__proto__}}", "exists")).toBe(false);
  });
});

describe("condition step", () => {
  it("all: every check must pass", () => {
    const step = conditionStep({
      checks: [
        { left: "{{body.status}}", operator: "equals", right: "open" },
        { left: "{{body.count}}", operator: "greater_than", right: "100" },
      ],
    });
    expect(runCondition(step, stepContext(context))).toBeInstanceOf(FlowStop);
  });

  it("any: one passing check is enough", () => {
    const step = conditionStep({
      combinator: "any",
      checks: [
        { left: "{{body.status}}", operator: "equals", right: "closed" },
        { left: "{{body.count}}", operator: "greater_than", right: "5" },
      ],
    });
    expect(runCondition(step, stepContext(context))).toBeNull();
  });

  it("stops with 422 and the default body when it has no stop settings", () => {
    const stop = runCondition(conditionStep({ checks: [{ left: "{{body.missing}}", operator: "exists" }] }), stepContext(context));
    expect(stop).toBeInstanceOf(FlowStop);
    expect(stop?.response).toEqual({ status: 422, body: CONDITION_NOT_MET_BODY });
    expect(JSON.parse(CONDITION_NOT_MET_BODY)).toEqual({ error: "condition not met" });
  });

  it("stops with its own status and rendered body", () => {
    const step = conditionStep({
      checks: [{ left: "{{body.status}}", operator: "equals", right: "closed" }],
      stopStatus: 409,
      stopBody: '{"error": "ticket is {{body.status}}", "title": "{{body.title}}"}',
    });
    const stop = runCondition(step, stepContext(context));
    expect(stop?.response.status).toBe(409);
    expect(JSON.parse(stop?.response.body ?? "")).toEqual({ error: "ticket is open", title: "Printer on fire" });
  });

  it("a stop body's values cannot break its JSON", () => {
    const ctx = createFlowContext({ body: { name: 'x", "admin": true, "y": "' } });
    const step = conditionStep({
      checks: [{ left: "{{body.missing}}", operator: "exists" }],
      stopBody: '{"error": "unknown {{body.name}}"}',
    });
    expect(JSON.parse(runCondition(step, stepContext(ctx))?.response.body ?? "")).toEqual({ error: 'unknown x", "admin": true, "y": "' });
  });

  it("only a status: the default body", () => {
    const step = conditionStep({ checks: [{ left: "{{body.missing}}", operator: "exists" }], stopStatus: 400 });
    expect(runCondition(step, stepContext(context))?.response).toEqual({ status: 400, body: CONDITION_NOT_MET_BODY });
  });

  it("validation: a binary operator needs a right operand, statuses are HTTP statuses", () => {
    const result = validateFlow([
      { type: "condition", checks: [{ left: "{{body.a}}", operator: "equals" }], stopStatus: 99 },
      { type: "condition", checks: [] },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path).sort()).toEqual(["steps.0.checks.0.right", "steps.0.stopStatus", "steps.1.checks"]);
  });
});
