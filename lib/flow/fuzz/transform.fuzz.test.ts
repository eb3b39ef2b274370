import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { FlowContext } from "@/lib/flow/engine/context";
import { jsonSizeWithin } from "@/lib/flow/engine/json-size";
import { runFlow } from "@/lib/flow/engine/run-flow";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { parseFlowOrThrow, type FlowStepOf } from "@/lib/flow/flow-definition";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { checkExpression, compileExpressionOrThrow } from "@/lib/flow/steps/transform/compile-expression";
import { evaluateExpression, functionSignatures } from "@/lib/flow/steps/transform/guarded-interpreter";
import { runTransform } from "@/lib/flow/steps/transform/run";
import {
  assertPlainJson,
  assertPrototypesUntouched,
  expectOnlyAppErrors,
  fuzzBaseSeed,
  fuzzCaseCount,
  caseSeed,
  HOSTILE_KEYS,
  Random,
  randomContext,
  randomJson,
  randomString,
  runCases,
  snapshotPrototypes,
} from "./fuzz-support";

/**
 * Fuzz of the JMESPath guard (security issue 9, item 11): random expressions (grammar-built and
 * plain garbage) over random contexts. Compiling answers a reason or an AST and never throws; the
 * transform runner leaves nothing but an AppError and its output is plain JSON under the size cap;
 * with small limits every string the expression builds stays under the cap; the context is not
 * changed; no prototype is reached, neither Object.prototype nor an output object's own.
 */

const BASE_SEED = fuzzBaseSeed(0x5eed_0717);
const CASES = fuzzCaseCount(900);
const ENGINE_CASES = 150;
// Case seeds that once found a bug, replayed on every run. 644636333: `{__proto__: …}` (and merge()
// of data with a `__proto__` field) set the output object's prototype to data.
const REGRESSION_SEEDS = [644_636_333];
// 3384864765: the transform `steps` handed back the live steps record, the engine stored it under
// steps.t, and the output contained itself: rendering {{steps.t}} failed with an internal error.
const ENGINE_REGRESSION_SEEDS = [3_384_864_765];

const SMALL_LIMITS = { maxWork: 4_000, maxChars: 300 };
const FIELDS = [...HOSTILE_KEYS, "body", "steps", "query", "user", "trigger", "a", "b", "name", "items", "t", "out"];
const FUNCTION_NAMES = Object.keys(functionSignatures());
const LITERALS = [
  '`{"__proto__": {"polluted": "yes"}, "a": 1}`',
  '`{"constructor": {"prototype": {"polluted": 1}}}`',
  "`[1, 2, 3]`",
  '`"x"`',
  "`null`",
  "`1e400`",
  "`-0`",
  "`[]`",
  "`{}`",
];

function identifier(random: Random): string {
  const name = random.pick(FIELDS);
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && random.chance(0.8) ? name : JSON.stringify(name);
}

function rawString(random: Random): string {
  return `'${randomString(random).slice(0, 40).replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function atom(random: Random): string {
  const roll = random.float();
  if (roll < 0.45) return identifier(random);
  if (roll < 0.55) return "@";
  if (roll < 0.7) return random.pick(LITERALS);
  if (roll < 0.8) return rawString(random);
  if (roll < 0.88) return `\`${String(random.between(-3, 70))}\``;
  if (roll < 0.93) return random.pick(["$x", "$", "$root"]);
  return `\`${JSON.stringify(randomJson(random, 1)) ?? "null"}\``;
}

function expression(random: Random, depth: number): string {
  if (depth <= 0 || random.chance(0.25)) return atom(random);
  const sub = () => expression(random, depth - 1);
  switch (random.int(17)) {
    case 0:
      return `${sub()}.${identifier(random)}`;
    case 1:
      return `${sub()}[${random.between(-3, 3)}]`;
    case 2:
      return `${sub()}[${random.pick(["::-1", "1:", ":2", "::2", "-2:"])}]`;
    case 3:
      return `${sub()}[*].${identifier(random)}`;
    case 4:
      return `${sub()}[]`;
    case 5:
      return `${sub()}[?${sub()} ${random.pick(["==", "!=", "<", ">=", "&&", "||"])} ${sub()}]`;
    case 6:
      return `${sub()} | ${sub()}`;
    case 7:
      return `{${Array.from({ length: random.between(1, 3) }, () => `${identifier(random)}: ${sub()}`).join(", ")}}`;
    case 8:
      return `[${sub()}, ${sub()}]`;
    case 9:
      return `${sub()} ${random.pick(["||", "&&", "==", "!=", "<", "+", "-", "*", "/", "%", "//"])} ${sub()}`;
    case 10:
      return `!${sub()}`;
    case 11:
      return `(${sub()})`;
    case 12:
    case 13: {
      const name = random.pick(FUNCTION_NAMES);
      const count = Math.max(0, (functionSignatures()[name]?._signature.length ?? 1) + random.between(-1, 1));
      return `${name}(${Array.from({ length: count }, () => (random.chance(0.2) ? `&${sub()}` : sub())).join(", ")})`;
    }
    case 14:
      return `let $x = ${sub()} in ${sub()}`;
    case 15:
      return `${sub()} ? ${sub()} : ${sub()}`;
    default:
      return `${sub()}.*`;
  }
}

function garbage(random: Random): string {
  const pieces = ["[", "]", "{", "}", "(", ")", "`", "'", '"', ".", "|", "||", "&", "@", "*", "?", ":", ",", "$", "!", "==", " ", "\\", "\u0000"];
  let text = "";
  for (let i = random.between(1, 20); i > 0; i--) text += random.chance(0.7) ? random.pick(pieces) : random.pick(FIELDS);
  return text;
}

/** Every string of a value (iteratively: contexts may be nested thousands of levels). */
function stringsOf(value: unknown): Set<string> {
  const found = new Set<string>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") found.add(current);
    else if (Array.isArray(current)) for (const item of current) pending.push(item);
    else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        found.add(key);
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return found;
}

/** The context as text when it can be written (not nested too deeply), to see that nothing changed it. */
function fingerprint(context: FlowContext): string | null {
  try {
    return JSON.stringify(context);
  } catch {
    return null;
  }
}

function transformStep(expressionText: string): FlowStepOf<"transform"> {
  const [step] = parseFlowOrThrow([{ type: "transform", name: "t", expression: expressionText }]);
  return step as FlowStepOf<"transform">;
}

function checkExpressionCase(context: FlowContext, expressionText: string): void {
  const problem = checkExpression(expressionText);
  if (problem !== null) {
    expect(typeof problem).toBe("string");
    expect(() => compileExpressionOrThrow(expressionText)).toThrow(AppError);
    return;
  }
  const ast = compileExpressionOrThrow(expressionText);
  const before = fingerprint(context);

  // Small limits: a runtime error is the library's plain Error or our AppError, never a
  // TypeError or RangeError, and every string built stays under the cap.
  try {
    const result = evaluateExpression(ast, context, SMALL_LIMITS);
    const known = stringsOf(context);
    for (const text of stringsOf(result)) {
      if (text.length > SMALL_LIMITS.maxChars && !known.has(text)) throw new Error(`a ${text.length}-character string was built past the cap: ${expressionText}`);
    }
  } catch (error) {
    if (!(error instanceof AppError) && (!(error instanceof Error) || error.constructor !== Error)) throw error;
  }

  // The real runner with the real limits: only AppErrors, plain JSON output under the cap.
  const stepContext: StepRunContext = { context, services: {}, index: 0, name: "t", signal: new AbortController().signal };
  const outcome = expectOnlyAppErrors(() => runTransform(transformStep(expressionText), stepContext));
  if ("value" in outcome) {
    assertPlainJson(outcome.value);
    expect(jsonSizeWithin(outcome.value, FLOW_LIMITS.maxTransformOutputChars)).toBeLessThanOrEqual(FLOW_LIMITS.maxTransformOutputChars);
  }
  if (before !== null) expect(fingerprint(context), `the context changed: ${expressionText}`).toBe(before);
}

describe("fuzz: JMESPath transforms under the guard", () => {
  const prototypes = snapshotPrototypes();

  it(`holds its properties over ${CASES} random expressions and contexts (base FUZZ_SEED=${BASE_SEED})`, () => {
    console.info(`transform fuzz: base FUZZ_SEED=${BASE_SEED}`);
    expect(Number.isInteger(BASE_SEED)).toBe(true);
    const ran = runCases({ baseSeed: BASE_SEED, count: CASES, regressionSeeds: REGRESSION_SEEDS }, (random) => {
      const context = randomContext(random, { deepChance: 0.05 });
      const expressionText = random.chance(0.85) ? expression(random, random.between(1, 4)) : garbage(random);
      checkExpressionCase(context, expressionText);
      assertPrototypesUntouched(prototypes);
    });
    expect(ran).toBe(CASES + REGRESSION_SEEDS.length);
  });

  it(`never fails a run with an internal error (${ENGINE_CASES} flows through the engine)`, async () => {
    const engineSeed = (BASE_SEED ^ 0x0e0e_0e0e) >>> 0;
    const seeds = [...ENGINE_REGRESSION_SEEDS, ...Array.from({ length: ENGINE_CASES }, (_, index) => caseSeed(engineSeed, index))];
    for (const seed of seeds) {
      const caseRandom = new Random(seed);
      const context = randomContext(caseRandom, { deepChance: 0.05 });
      const expressionText = expression(caseRandom, caseRandom.between(1, 3));
      if (checkExpression(expressionText) !== null) continue;
      const result = await runFlow({
        steps: [
          { type: "transform", name: "t", expression: expressionText },
          {
            type: "condition",
            checks: [{ left: "{{steps.t}}", operator: caseRandom.pick(["equals", "contains", "exists"] as const), right: "{{body}}" }],
            stopBody: "{{steps.t}}",
          },
        ],
        context: { body: context.body, query: context.query, user: context.user },
      });
      for (const step of result.steps) {
        expect(step.error ?? "", `seed ${seed}: ${expressionText}`).not.toMatch(/^internal error/);
      }
      if (result.stop) expect(() => JSON.parse(result.stop?.body ?? ""), `seed ${seed}`).not.toThrow();
      assertPrototypesUntouched(prototypes);
    }
  });
});
