import { parseTemplate, resolveValue, stringifyTemplateValue, type TemplateScope } from "@/lib/flow/engine/render-template";
import type { ConditionCheck } from "./definition";

/**
 * One condition check.
 *
 * Operands: a template that is one placeholder keeps the value's type (and can be missing); other
 * templates render to text; literal text that is a JSON number or true/false is that number or
 * boolean (a typed `18` compares as the number 18).
 *
 * - equals / not_equals: deep equality; a number equals a numeric string of the same value and a
 *   boolean its text ("true"). A missing operand equals nothing.
 * - greater_than / less_than: numeric when both sides are numbers (a numeric string facing a
 *   number counts as one); two strings compare by code points; anything else is false.
 * - contains: substring of a string, element of an array (equals rules), own key of an object.
 * - exists / not_exists: the left operand resolves to a value other than null.
 */

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function readOperand(operand: ConditionCheck["left"] | undefined, scope: TemplateScope): Operand {
  if (operand === undefined) return { missing: true, value: null };
  if (typeof operand !== "string") return { missing: false, value: operand };
  const literal = !operand.includes("{{") || parseTemplate(operand).parts.every((part) => typeof part === "string");
  if (!literal) return resolveValue(operand, scope);
  const trimmed = operand.trim();
  if (JSON_NUMBER.test(trimmed)) return { missing: false, value: Number(trimmed) };
  if (trimmed === "true" || trimmed === "false") return { missing: false, value: trimmed === "true" };
  return { missing: false, value: operand };
}

function numberFromString(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : null;
}

/**
 * Deep equality over own keys, without recursion: a request body of a few kilobytes can nest
 * thousands of levels deep, which would overflow the stack of a recursive walk.
 */
function deepEqual(a: unknown, b: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [left, right] = pair;
    if (left === right) continue;
    if (left === null || right === null || typeof left !== "object" || typeof right !== "object") return false;
    if (Array.isArray(left) !== Array.isArray(right)) return false;
    if (Array.isArray(left) && Array.isArray(right)) {
      if (left.length !== right.length) return false;
      for (let index = 0; index < left.length; index++) pending.push([left[index], right[index]]);
      continue;
    }
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    for (const key of leftKeys) {
      if (!Object.hasOwn(right, key)) return false;
      pending.push([(left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

function looselyEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "string") return numberFromString(b) === a;
  if (typeof a === "string" && typeof b === "number") return numberFromString(a) === b;
  if (typeof a === "boolean" && typeof b === "string") return b.trim() === String(a);
  if (typeof a === "string" && typeof b === "boolean") return a.trim() === String(b);
  return deepEqual(a, b);
}

function compare(a: unknown, b: unknown): number | null {
  const left = typeof a === "string" && typeof b === "number" ? numberFromString(a) : a;
  const right = typeof b === "string" && typeof a === "number" ? numberFromString(b) : b;
  if (typeof left === "number" && typeof right === "number") return left - right;
  if (typeof left === "string" && typeof right === "string") return left < right ? -1 : left > right ? 1 : 0;
  return null;
}

function contains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === "string") return haystack.includes(stringifyTemplateValue(needle));
  if (Array.isArray(haystack)) return haystack.some((item) => looselyEqual(item, needle));
  if (haystack !== null && typeof haystack === "object") return typeof needle === "string" && Object.hasOwn(haystack, needle);
  return false;
}

/** One check as it was decided: each operand as resolved (`missing` when its placeholder did not resolve) and the verdict. */
export interface CheckVerdict {
  left: Operand;
  /** Null for the operators that read the left operand only. */
  right: Operand | null;
  passed: boolean;
}

export interface Operand {
  missing: boolean;
  value: unknown;
}

export function evaluateCheck(check: ConditionCheck, scope: TemplateScope): boolean {
  return explainCheck(check, scope).passed;
}

/** The check's operands as the run read them, with its verdict: what a test run shows under each check. */
export function explainCheck(check: ConditionCheck, scope: TemplateScope): CheckVerdict {
  const left = readOperand(check.left, scope);
  const present = !left.missing && left.value !== null;
  switch (check.operator) {
    case "exists":
      return { left, right: null, passed: present };
    case "not_exists":
      return { left, right: null, passed: !present };
  }
  const right = readOperand(check.right, scope);
  const bothPresent = !left.missing && !right.missing;
  return { left, right, passed: decide(check.operator, left.value, right.value, bothPresent) };
}

function decide(operator: Exclude<ConditionCheck["operator"], "exists" | "not_exists">, left: unknown, right: unknown, bothPresent: boolean): boolean {
  switch (operator) {
    case "equals":
      return bothPresent && looselyEqual(left, right);
    case "not_equals":
      return !(bothPresent && looselyEqual(left, right));
    case "contains":
      return bothPresent && contains(left, right);
    case "greater_than": {
      const order = bothPresent ? compare(left, right) : null;
      return order !== null && order > 0;
    }
    case "less_than": {
      const order = bothPresent ? compare(left, right) : null;
      return order !== null && order < 0;
    }
  }
}
