import { describe, expect, it } from "vitest";
import { createFlowContext } from "@/lib/flow/engine/context";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { renderJsonBody } from "@/lib/flow/engine/render-json-body";
import { compileExpressionOrThrow } from "./compile-expression";
import { evaluateExpression } from "./guarded-interpreter";

/** Regressions of the transform fuzz: outputs never contain themselves nor take a prototype from data. */

const limits = { maxWork: 100_000, maxChars: 100_000 };

describe("transform outputs", () => {
  it("a transform that hands back `steps` or the whole context does not make the output contain itself (case seed 3384864765)", async () => {
    const run = await runFlow({
      steps: [
        { type: "transform", name: "t", expression: "steps" },
        { type: "transform", name: "all", expression: "@" },
        { type: "condition", checks: [{ left: "{{steps.t}}", operator: "exists" }] },
      ],
      context: { body: { id: 1 } },
    });
    expect(run.outcome).toBe("completed");
    expect(run.steps.map((step) => step.error)).toEqual([null, null, null]);
    expect(JSON.parse(renderJsonBody("{{steps.t}}", run.context))).toEqual({});
    expect(JSON.parse(renderJsonBody("{{steps.all}}", run.context))).toMatchObject({ body: { id: 1 }, steps: { t: {} } });
  });

  it("`{__proto__: …}` and merge() keep a __proto__ field as a field (case seed 644636333)", () => {
    const data = createFlowContext({ body: JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as Record<string, unknown> });
    for (const expression of ["{__proto__: body.__proto__}", "merge(body)", "merge(`{}`, body)"]) {
      const output = evaluateExpression(compileExpressionOrThrow(expression), data, limits) as Record<string, unknown>;
      expect(Object.getPrototypeOf(output), expression).toBe(Object.prototype);
      expect(output.polluted, expression).toBeUndefined();
      expect(Object.hasOwn(output, "__proto__"), expression).toBe(true);
      expect(JSON.parse(JSON.stringify(output)).__proto__, expression).toEqual({ polluted: "yes" });
    }
    const merged = evaluateExpression(compileExpressionOrThrow('merge(body, `{"a": 2}`)'), data, limits);
    expect(JSON.stringify(merged)).toBe('{"__proto__":{"polluted":"yes"},"a":2}');
  });
});

describe("transform comparisons over data nested thousands of levels deep", () => {
  it("compare without overflowing the stack, still metered", () => {
    const nested = (leaf: number) => JSON.parse(`${"[".repeat(20_000)}${leaf}${"]".repeat(20_000)}`) as unknown;
    const data = createFlowContext({ body: { a: nested(1), b: nested(1), c: nested(2) } });
    const run = (expression: string, maxWork = 100_000) => evaluateExpression(compileExpressionOrThrow(expression), data, { maxWork, maxChars: 100_000 });
    expect(run("body.a == body.b")).toBe(true);
    expect(run("body.a == body.c")).toBe(false);
    expect(run("body.a != body.c")).toBe(true);
    expect(() => run("body.a == body.b", 1_000)).toThrow(/work limit/);
  });
});
