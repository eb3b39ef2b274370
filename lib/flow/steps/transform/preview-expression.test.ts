import { describe, expect, it } from "vitest";
import { createFlowContext } from "@/lib/flow/engine/context";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { PREVIEW_MAX_CHARS, previewExpression } from "./preview-expression";

function lastRunContext() {
  const context = createFlowContext({ body: { status: "open" }, query: { page: "2" }, user: { id: "usr_1" } });
  context.steps.tickets = [
    { id: "t1", status: "open", priority: 3 },
    { id: "t2", status: "closed", priority: 1 },
  ];
  return context;
}

describe("previewExpression", () => {
  it("evaluates over the whole context with the step's functions, as pretty JSON", () => {
    const preview = previewExpression("{open: steps.tickets[?status==$.body.status].id, total: length(steps.tickets), page: query.page, who: user.id}", lastRunContext());
    expect(preview).toEqual({
      kind: "result",
      text: JSON.stringify({ open: ["t1"], total: 2, page: "2", who: "usr_1" }, null, 2),
      truncated: false,
      summary: "an object with 4 fields",
    });
    expect(previewExpression("sort_by(steps.tickets, &priority)[].id", lastRunContext())).toMatchObject({
      text: JSON.stringify(["t2", "t1"], null, 2),
      summary: "a list of 2 items",
    });
    expect(previewExpression("trigger.status", lastRunContext())).toMatchObject({ text: '"open"', summary: 'the text "open"' });
  });

  it("answers null for a path the context lacks", () => {
    expect(previewExpression("steps.later.id", lastRunContext())).toEqual({ kind: "result", text: "null", truncated: false, summary: "null" });
  });

  it("reports nothing for an empty expression", () => {
    expect(previewExpression("   ", lastRunContext())).toEqual({ kind: "empty" });
  });

  it("carries the library's message when the expression does not compile", () => {
    const preview = previewExpression("steps.tickets[?status==", lastRunContext());
    expect(preview).toMatchObject({ kind: "error", stage: "compile" });
    expect(preview.kind === "error" && preview.message).toMatch(/^invalid JMESPath expression: .+/);
  });

  it("names an unknown function or a wrong argument count the way saving does", () => {
    expect(previewExpression("shout(body.status)", lastRunContext())).toEqual({
      kind: "error",
      stage: "compile",
      message: "invalid JMESPath expression: unknown function shout()",
    });
    expect(previewExpression("length(body, query)", lastRunContext())).toEqual({
      kind: "error",
      stage: "compile",
      message: "invalid JMESPath expression: length() takes 1 argument, got 2",
    });
  });

  it("reports a runtime type error against this context as a run error", () => {
    const preview = previewExpression("sum(steps.tickets[].id)", lastRunContext());
    expect(preview).toMatchObject({ kind: "error", stage: "run" });
    expect(preview.kind === "error" && preview.message).toMatch(/^transform failed: /);
  });

  it("applies the step's limits: too long an expression, and too much work", () => {
    expect(previewExpression(`body.${"a".repeat(FLOW_LIMITS.maxExpressionLength)}`, lastRunContext())).toEqual({
      kind: "error",
      stage: "compile",
      message: `expression is longer than ${FLOW_LIMITS.maxExpressionLength} characters`,
    });
    const context = lastRunContext();
    context.steps.items = Array.from({ length: 100 }, (_, index) => index);
    const doubling = `steps.items | ${Array(10).fill("[@, @, @, @, @, @, @, @, @, @][]").join(" | ")} | length(@)`;
    const preview = previewExpression(doubling, context);
    expect(preview).toMatchObject({ kind: "error", stage: "run" });
    expect(preview.kind === "error" && preview.message).toMatch(/work limit/);
  });

  it("cuts a long result at the cap and says so", () => {
    const context = lastRunContext();
    context.steps.many = Array.from({ length: 500 }, (_, index) => ({ id: `record-${index}` }));
    const preview = previewExpression("steps.many", context);
    expect(preview.kind).toBe("result");
    if (preview.kind !== "result") return;
    expect(preview.truncated).toBe(true);
    expect(preview.summary).toBe("a list of 500 items");
    expect(preview.text).toHaveLength(PREVIEW_MAX_CHARS + 1);
    expect(preview.text.endsWith("…")).toBe(true);
    expect(previewExpression("steps.many", context, 50_000)).toMatchObject({ truncated: false });
  });
});
