import { describe, expect, it } from "vitest";
import type { FlowContext } from "@/lib/flow/engine/context";
import { FlowStop, type StepRunContext } from "@/lib/flow/engine/step-runner";
import { validateFlow, type FlowStepOf } from "@/lib/flow/flow-definition";
import { CONDITION_OPERATORS } from "@/lib/flow/steps/condition/catalog";
import type { ConditionCheck } from "@/lib/flow/steps/condition/definition";
import { evaluateCheck } from "@/lib/flow/steps/condition/evaluate-check";
import { runCondition } from "@/lib/flow/steps/condition/run";
import {
  assertPrototypesUntouched,
  expectOnlyAppErrors,
  fuzzBaseSeed,
  fuzzCaseCount,
  randomContext,
  randomNumber,
  randomPath,
  randomPlaceholder,
  randomString,
  runCases,
  snapshotPrototypes,
  type Random,
} from "./fuzz-support";

/**
 * Fuzz of the condition step (security issue 9, item 11) over random contexts and checks: the
 * runner answers pass or a stop with a JSON body and nothing but an AppError leaves it; the
 * operators keep their algebra (not_equals negates equals, equals is symmetric, greater_than
 * mirrors less_than, exists negates not_exists); no prototype is touched.
 */

const BASE_SEED = fuzzBaseSeed(0x5eed_0c0d);
const CASES = fuzzCaseCount(1_000);
// Case seeds that once found a bug, replayed on every run. 4115589667: equals over two bodies
// nested thousands of levels deep overflowed the stack of a recursive deep equality (a RangeError
// out of the step runner where a plain answer belongs).
const REGRESSION_SEEDS = [4_115_589_667];

function randomOperand(random: Random, context: FlowContext): ConditionCheck["left"] {
  const roll = random.float();
  if (roll < 0.55) return random.chance(0.85) ? `{{${randomPath(random, context)}}}` : randomPlaceholder(random, context);
  if (roll < 0.65) return `${randomString(random)} {{${randomPath(random, context)}}}`;
  if (roll < 0.8) return randomString(random).slice(0, 2_000);
  if (roll < 0.9) return randomNumber(random);
  if (roll < 0.95) return random.chance(0.5);
  return null;
}

function randomCheck(random: Random, context: FlowContext): ConditionCheck {
  return { left: randomOperand(random, context), operator: random.pick(CONDITION_OPERATORS), right: randomOperand(random, context) };
}

function conditionStep(random: Random, context: FlowContext): FlowStepOf<"condition"> | null {
  const input = {
    type: "condition",
    checks: Array.from({ length: random.between(1, 4) }, () => randomCheck(random, context)),
    combinator: random.pick(["all", "any"]),
    stopStatus: random.chance(0.5) ? random.pick([400, 409, 422, 599]) : null,
    stopBody: random.chance(0.6)
      ? random.pick([`{"error": "${randomPlaceholder(random, context)}"}`, randomPlaceholder(random, context), `${randomString(random)}{{${randomPath(random, context)}}}`])
      : null,
  };
  const validated = validateFlow([input]);
  return validated.ok ? (validated.steps[0] as FlowStepOf<"condition">) : null;
}

function evaluate(left: ConditionCheck["left"], operator: ConditionCheck["operator"], right: ConditionCheck["right"], context: FlowContext) {
  const result = expectOnlyAppErrors(() => evaluateCheck({ left, operator, right }, context));
  if ("value" in result) expect(typeof result.value).toBe("boolean");
  return "value" in result ? result.value : null;
}

function checkAlgebra(random: Random, context: FlowContext): void {
  const left = randomOperand(random, context);
  const right = randomOperand(random, context);
  const equals = evaluate(left, "equals", right, context);
  const notEquals = evaluate(left, "not_equals", right, context);
  if (equals !== null && notEquals !== null) expect(notEquals, `not_equals negates equals for ${String(left)} / ${String(right)}`).toBe(!equals);
  const mirrored = evaluate(right, "equals", left, context);
  if (equals !== null && mirrored !== null) expect(mirrored, `equals is symmetric for ${String(left)} / ${String(right)}`).toBe(equals);
  const greater = evaluate(left, "greater_than", right, context);
  const less = evaluate(left, "less_than", right, context);
  const mirroredLess = evaluate(right, "less_than", left, context);
  if (greater !== null && mirroredLess !== null) expect(mirroredLess, `greater_than mirrors less_than for ${String(left)} / ${String(right)}`).toBe(greater);
  if (greater !== null && less !== null) expect(greater && less).toBe(false);
  const exists = evaluate(left, "exists", undefined, context);
  const notExists = evaluate(left, "not_exists", undefined, context);
  if (exists !== null && notExists !== null) expect(notExists).toBe(!exists);
  evaluate(left, "contains", right, context);
}

function checkRunner(random: Random, context: FlowContext): void {
  const step = conditionStep(random, context);
  if (step === null) return;
  const stepContext: StepRunContext = { context, services: {}, index: 0, name: null, signal: new AbortController().signal };
  const result = expectOnlyAppErrors(() => runCondition(step, stepContext));
  if ("error" in result || result.value === null) return;
  expect(result.value).toBeInstanceOf(FlowStop);
  const { status, body } = result.value.response;
  expect(status).toBe(step.stopStatus ?? 422);
  // A stop answer is served as JSON: its body always parses.
  expect(() => JSON.parse(body), body).not.toThrow();
}

describe("fuzz: condition checks and the condition step", () => {
  it(`holds its properties over ${CASES} random contexts and checks (base FUZZ_SEED=${BASE_SEED})`, () => {
    console.info(`condition fuzz: base FUZZ_SEED=${BASE_SEED}`);
    expect(Number.isInteger(BASE_SEED)).toBe(true);
    const prototypes = snapshotPrototypes();
    const ran = runCases({ baseSeed: BASE_SEED, count: CASES, regressionSeeds: REGRESSION_SEEDS }, (random) => {
      const context = randomContext(random, { deepChance: 0.15 });
      for (let pair = 0; pair < 3; pair++) checkAlgebra(random, context);
      checkRunner(random, context);
      assertPrototypesUntouched(prototypes);
    });
    expect(ran).toBe(CASES + REGRESSION_SEEDS.length);
  });
});
