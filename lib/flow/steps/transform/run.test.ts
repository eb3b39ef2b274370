import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createFlowContext, type FlowContext } from "@/lib/flow/engine/context";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { parseFlowOrThrow, validateFlow, type FlowStepOf } from "@/lib/flow/flow-definition";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { checkExpression, compileExpressionOrThrow } from "./compile-expression";
import { runTransform } from "./run";

function transformStep(expression: string): FlowStepOf<"transform"> {
  const [step] = parseFlowOrThrow([{ type: "transform", name: "t", expression }]);
  return step as FlowStepOf<"transform">;
}

function stepContext(context: FlowContext): StepRunContext {
  return { context, services: {}, index: 0, name: "t", signal: new AbortController().signal };
}

function run(expression: string, context: FlowContext): unknown {
  return runTransform(transformStep(expression), stepContext(context));
}

function failure(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a failure");
}

function ticketsContext(): FlowContext {
  const context = createFlowContext({ body: { status: "open" }, query: { q: "x" }, user: { id: "usr_1", team: "blue" } });
  context.steps.tickets = [
    { id: "t1", status: "open", priority: 3, owner: "usr_1" },
    { id: "t2", status: "closed", priority: 1, owner: "usr_2" },
    { id: "t3", status: "open", priority: 2, owner: "usr_1" },
  ];
  return context;
}

describe("transform: reading the whole context", () => {
  it("splits records by status and counts them (the spec's composed read)", () => {
    const result = run(
      "{open: steps.tickets[?status=='open'], closed: steps.tickets[?status=='closed'], counts: {open: length(steps.tickets[?status=='open']), closed: length(steps.tickets[?status=='closed'])}}",
      ticketsContext(),
    );
    expect(result).toEqual({
      open: [
        { id: "t1", status: "open", priority: 3, owner: "usr_1" },
        { id: "t3", status: "open", priority: 2, owner: "usr_1" },
      ],
      closed: [{ id: "t2", status: "closed", priority: 1, owner: "usr_2" }],
      counts: { open: 2, closed: 1 },
    });
  });

  it("reads user, body, query and trigger", () => {
    expect(run("[user.id, body.status, query.q, trigger.status]", ticketsContext())).toEqual(["usr_1", "open", "x", "open"]);
    expect(run("steps.tickets[?owner == $.user.id].id", ticketsContext())).toEqual(["t1", "t3"]);
  });

  it("supports functions, sorting, let and arithmetic of the community spec", () => {
    const context = ticketsContext();
    expect(run("sort_by(steps.tickets, &priority)[].id", context)).toEqual(["t2", "t3", "t1"]);
    expect(run("sum(steps.tickets[].priority) * `2`", context)).toBe(12);
    expect(run("let $min = `2` in steps.tickets[?priority >= $min].id", context)).toEqual(["t1", "t3"]);
    expect(run("group_by(steps.tickets, &status)", context)).toEqual({
      open: [
        { id: "t1", status: "open", priority: 3, owner: "usr_1" },
        { id: "t3", status: "open", priority: 2, owner: "usr_1" },
      ],
      closed: [{ id: "t2", status: "closed", priority: 1, owner: "usr_2" }],
    });
  });

  it("answers null for missing paths", () => {
    expect(run("steps.nothing.here", ticketsContext())).toBeNull();
  });

  it("cannot change data: sorting, reversing and merging leave the context as it was", () => {
    const context = ticketsContext();
    const before = structuredClone({ body: context.body, steps: context.steps });
    run("sort_by(steps.tickets, &priority)", context);
    run("reverse(steps.tickets)", context);
    run("sort(steps.tickets[].id)", context);
    run("merge(steps.tickets[0], {status: 'hacked'})", context);
    run("map(&merge(@, {status: 'x'}), steps.tickets)", context);
    expect({ body: context.body, steps: context.steps }).toEqual(before);
  });
});

describe("transform: own properties only", () => {
  it("constructor, __proto__ and other inherited names are null", () => {
    const context = createFlowContext({ body: { a: 1 } });
    expect(run("body.constructor", context)).toBeNull();
    expect(run("body.__proto__", context)).toBeNull();
    expect(run("body.toString", context)).toBeNull();
    expect(run("steps.constructor", context)).toBeNull();
    expect(run("[body.constructor, body.a]", context)).toEqual([null, 1]);
  });

  it("own keys with those names are read", () => {
    const context = createFlowContext({ body: JSON.parse('{"constructor":"mine"}') });
    expect(run("body.constructor", context)).toBe("mine");
  });

  it("group_by works with keys that are Object.prototype names", () => {
    const context = createFlowContext({ body: [{ k: "constructor" }, { k: "__proto__" }, { k: "constructor" }] });
    const groups = run("group_by(body, &k)", context) as Record<string, unknown[]>;
    expect(Object.keys(groups).sort()).toEqual(["__proto__", "constructor"]);
    expect(groups.constructor).toHaveLength(2);
    expect(JSON.stringify(groups)).toBe('{"constructor":[{"k":"constructor"},{"k":"constructor"}],"__proto__":[{"k":"__proto__"}]}');
  });
});

describe("transform: validated and compiled when saved", () => {
  it("an invalid expression is a 422 issue naming the step's expression", () => {
    const result = validateFlow([
      { type: "transform", name: "ok", expression: "steps.a" },
      { type: "condition", checks: [{ left: "{{body.a}}", operator: "exists" }] },
      { type: "transform", name: "broken", expression: "steps.a[" },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.path).toBe("steps.2.expression");
    expect(result.issues[0]?.message).toMatch(/^invalid JMESPath expression: /);
  });

  it.each([
    ["unknown functions", "nope(@)", /unknown function nope\(\)/],
    ["wrong argument counts", "length(@, @)", /length\(\) takes 1 argument, got 2/],
    ["bad literals", "`{bad`", /invalid JMESPath expression/],
    ["an empty expression", "  ", /empty/],
  ])("rejects %s", (_label, expression, message) => {
    expect(checkExpression(expression)).toMatch(message);
  });

  it("compiles once: the compiled tree comes from the cache afterwards", () => {
    expect(compileExpressionOrThrow("steps.tickets[0]")).toBe(compileExpressionOrThrow("steps.tickets[0]"));
  });
});

describe("transform: limits", () => {
  it("refuses expressions longer than the limit", () => {
    const long = `body.${"a".repeat(FLOW_LIMITS.maxExpressionLength)}`;
    expect(checkExpression(long)).toMatch(/longer than 2000 characters/);
    expect(checkExpression(`body.${"a".repeat(FLOW_LIMITS.maxExpressionLength - 5)}`)).toBeNull();
    const result = validateFlow([{ type: "transform", expression: long }]);
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(["steps.0.expression"]);
  });

  it("refuses nesting deeper than the limit", () => {
    const depth = FLOW_LIMITS.maxExpressionNesting;
    const nested = (levels: number) => `${"[".repeat(levels)}body${"]".repeat(levels)}`;
    expect(checkExpression(nested(depth))).toBeNull();
    expect(checkExpression(nested(depth + 1))).toMatch(/deeper than 16 levels/);
    expect(checkExpression(`${"(".repeat(depth + 1)}body${")".repeat(depth + 1)}`)).toMatch(/deeper than 16/);
    expect(checkExpression(`${"{a: ".repeat(depth + 1)}body${"}".repeat(depth + 1)}`)).toMatch(/deeper than 16/);
  });

  it("fails the step with a clear error when the output is too large", () => {
    const context = createFlowContext({ body: { text: "x".repeat(100_000) } });
    expect(run("[body.text, body.text]", context)).toHaveLength(2);
    const error = failure(() => run(`[${Array(11).fill("body.text").join(", ")}]`, context));
    expect(error.message).toBe(`transform output is larger than ${FLOW_LIMITS.maxTransformOutputChars} characters when serialised`);
  });

  it("catches outputs that share objects and would serialise to gigabytes", () => {
    const context = createFlowContext({ body: { text: "x".repeat(1_000) } });
    // Each level doubles the serialised size while the value stays small in memory.
    const nested =
      "let $a = body in let $b = [$a, $a] in let $c = [$b, $b] in let $d = [$c, $c] in let $e = [$d, $d] in let $f = [$e, $e] in let $g = [$f, $f] in let $h = [$g, $g] in let $i = [$h, $h] in let $j = [$i, $i] in let $k = [$j, $j] in [$k, $k]";
    expect(failure(() => run(nested, context)).message).toMatch(/transform output is larger than/);
  });

  it("cuts off strings built past the cap before they are built", () => {
    const context = createFlowContext({ body: { text: "x".repeat(10_000) } });
    expect(failure(() => run("pad_left('a', `100000000`)", context)).message).toMatch(/string would exceed/);
    expect(failure(() => run("replace(body.text, 'x', body.text)", context)).message).toMatch(/string would exceed/);
    expect(
      failure(() =>
        run(
          "join(body.text, [body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text, body.text])",
          context,
        ),
      ).message,
    ).toMatch(/string would exceed/);
    expect(failure(() => run("replace('a', 'a', 'b', `100000000`)", context)).message).toMatch(/count may be at most/);
  });

  it("stops doubling tricks with its work limit before they exhaust memory", () => {
    const context = createFlowContext({ body: { items: Array.from({ length: 100 }, (_, i) => i) } });
    const stage = "[@, @, @, @, @, @, @, @, @, @][]";
    const expression = `body.items | ${Array(10).fill(stage).join(" | ")} | length(@)`;
    expect(checkExpression(expression)).toBeNull();
    const started = performance.now();
    expect(failure(() => run(expression, context)).message).toMatch(/work limit/);
    // Not a performance assertion: proof that it stopped long before 10^10 elements.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("counts a flatten before building it, so one wide stage cannot allocate millions of elements", () => {
    const context = createFlowContext({ body: { items: Array.from({ length: 10_000 }, (_, i) => i) } });
    const wide = `[${Array(300).fill("@").join(",")}][]`;
    const expression = `body.items | ${wide} | ${wide} | length(@)`;
    expect(checkExpression(expression)).toBeNull();
    const heapBefore = process.memoryUsage().heapUsed;
    expect(failure(() => run(expression, context)).message).toMatch(/work limit/);
    // 10 000 × 300 × 300 elements would be 900 million; the check fires before the first 3 million are built.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it("charges work done inside functions and comparisons over one big value used many times", () => {
    const big = Array.from({ length: 20_000 }, (_, i) => i);
    const context = createFlowContext({ body: { a: big, b: [...big], items: Array.from({ length: 5 }, (_, i) => i) } });
    expect(run("length(body.items[?$.body.a == $.body.b])", context)).toBe(5);
    expect(
      failure(() =>
        run(
          "body.items[*].[$.body.a == $.body.b, sum($.body.a)] | [*].[$.body.a == $.body.b]",
          createFlowContext({ body: { a: big, b: [...big], items: Array.from({ length: 3_000 }, (_, i) => i) } }),
        ),
      ).message,
    ).toMatch(/work limit/);
    expect(failure(() => run("body.items[*].sum($.body.a)", createFlowContext({ body: { a: big, items: Array.from({ length: 3_000 }, (_, i) => i) } }))).message).toMatch(
      /work limit/,
    );
  });

  it("reports runtime errors of the expression as step errors", () => {
    const context = createFlowContext({ body: { a: "text" } });
    expect(failure(() => run("abs(body.a)", context)).message).toMatch(/^transform failed: /);
    expect(failure(() => run("body.a + `1`", context)).message).toMatch(/^transform failed: /);
  });
});
