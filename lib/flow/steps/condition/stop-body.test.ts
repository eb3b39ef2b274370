import { describe, expect, it } from "vitest";
import { createFlowContext, type FlowContext } from "@/lib/flow/engine/context";
import { renderJsonBody } from "@/lib/flow/engine/render-json-body";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { parseFlowOrThrow, type FlowStepOf } from "@/lib/flow/flow-definition";
import { runCondition } from "./run";

/** A stop answer is JSON: its body goes through the same renderer as an endpoint's JSON response. */

function stopBodyOf(stopBody: string, context: FlowContext): string {
  const [step] = parseFlowOrThrow([{ type: "condition", checks: [{ left: "{{body.missing}}", operator: "exists" }], stopBody }]);
  const stop = runCondition(step as FlowStepOf<"condition">, { context, services: {}, index: 0, name: null, signal: new AbortController().signal } satisfies StepRunContext);
  if (stop === null) throw new Error("the condition should have stopped");
  return stop.response.body;
}

describe("condition stop bodies", () => {
  const context = createFlowContext({ body: { id: 'say "hi"' } });
  context.steps.note = '{"admin": true}';
  context.steps.shape = { ok: false, reason: "<b>closed</b>" };

  it("match renderJsonBody for every kind of body", () => {
    for (const body of ['{"error": "{{body.id}}"}', "{{steps.shape}}", "{{steps.note}}", 'Ticket "{{body.id}}" is closed', "plain text", "[1, 2]"]) {
      expect(stopBodyOf(body, context), body).toBe(renderJsonBody(body, context));
    }
  });

  it("a step output that holds JSON text stays a string, it does not become structure", () => {
    expect(JSON.parse(stopBodyOf("{{steps.note}}", context))).toBe('{"admin": true}');
    expect(JSON.parse(stopBodyOf("{{steps.shape}}", context))).toEqual({ ok: false, reason: "<b>closed</b>" });
  });

  it("plain text with quotes is served as the text, values not JSON-escaped twice", () => {
    expect(JSON.parse(stopBodyOf('Ticket "{{body.id}}" is closed', context))).toBe('Ticket "say "hi"" is closed');
  });
});
