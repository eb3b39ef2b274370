import { TYPE_STRING, TreeInterpreter, compile, type JSONValue } from "@jmespath-community/jmespath";
import { AppError } from "@/lib/errors";
import { jsonSizeWithin } from "@/lib/flow/engine/json-size";

/**
 * A JMESPath interpreter of our own (not the library's shared singleton) with three changes:
 *
 * 1. Fields resolve through own properties only: `constructor` or `__proto__` on an object is
 *    null, never the prototype's function or object.
 * 2. Evaluation is metered (FLOW_LIMITS.maxTransformWork): every visited node, every array
 *    element produced (a flatten is counted before it is built), every 64 characters of a string
 *    produced, the size of every function argument (elements, keys, characters) and every node an
 *    equality comparison walks. No string may grow past the output cap. A transform is synchronous,
 *    so an abort signal cannot stop it; this bounds its CPU and memory instead (doubling tricks like
 *    chained `[@,@][]`, nested `join`/`replace`, or one big value summed, sorted or compared once per
 *    element of another array are cut off early).
 * 3. Functions that could build huge values before any check (pad, replace, join, to_string) check
 *    sizes first, and group_by uses a prototype-less accumulator (a group named "constructor" works).
 * 4. Objects are built with defined fields, never by assignment: the library's `{__proto__: x}`
 *    and merge() of data with a `__proto__` key (JSON.parse makes it an own field) would set the
 *    result's prototype to data and drop the field.
 *
 * The library's functions never mutate their input (sort, reverse, merge copy), so a transform
 * cannot change the context.
 */

export type ExpressionNode = ReturnType<typeof compile>;
type Interpreter = typeof TreeInterpreter;
type VisitResult = ReturnType<Interpreter["visit"]>;
type FunctionTable = Interpreter["runtime"]["_functionTable"];
interface InterpreterInternals {
  _rootValue: JSONValue;
  _scope: { withScope(data: Record<string, JSONValue>): unknown };
}

export interface EvaluationLimits {
  /** Work units (see above) one evaluation may use. */
  maxWork: number;
  /** Characters of any string built and of the serialised output. */
  maxChars: number;
}

const MAX_REPLACE_COUNT = 10_000;

interface Meter extends EvaluationLimits {
  used: number;
}

// Evaluation is synchronous, so one meter for the current evaluation is enough. Outside an
// evaluation (the library calling a function directly) nothing is limited.
const UNLIMITED: Meter = { maxWork: Number.POSITIVE_INFINITY, maxChars: Number.POSITIVE_INFINITY, used: 0 };
let meter: Meter = UNLIMITED;

function workLimitExceeded(): never {
  throw new AppError("validation_failed", `transform exceeded its work limit (${meter.maxWork} units): the expression does too much work`);
}

function charge(units: number): void {
  if ((meter.used += units) > meter.maxWork) workLimitExceeded();
}

function checkStringLength(length: number): void {
  if (length > meter.maxChars) {
    throw new AppError("validation_failed", `transform output too large: a string would exceed ${meter.maxChars} characters`);
  }
}

/** Sets a field as JSON.parse would: `__proto__` becomes an own field, never the prototype. */
function defineField(target: Record<string, JSONValue>, key: string, value: JSONValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function guardFunctions(runtime: Interpreter["runtime"]): void {
  const table = runtime._functionTable;
  const wrap = (name: string, guarded: (original: (args: unknown[]) => JSONValue, args: unknown[]) => JSONValue) => {
    const entry = table[name];
    if (entry === undefined) throw new Error(`JMESPath function ${name}() is missing; the library changed`);
    const original = entry._func as (args: unknown[]) => JSONValue;
    entry._func = (args: unknown[]) => guarded(original, args);
  };

  const guardPad = (original: (args: unknown[]) => JSONValue, args: unknown[]) => {
    if (typeof args[1] === "number") checkStringLength(args[1]);
    return original(args);
  };
  wrap("pad_left", guardPad);
  wrap("pad_right", guardPad);

  wrap("replace", (original, args) => {
    const [subject, search, by, count] = args as [string, string, string, number | undefined];
    if (count === undefined || count === null) {
      const parts = subject.split(search);
      checkStringLength(subject.length - (parts.length - 1) * search.length + (parts.length - 1) * by.length);
      charge(parts.length);
      return parts.join(by);
    }
    if (typeof count === "number" && count > MAX_REPLACE_COUNT) {
      throw new AppError("validation_failed", `replace() count may be at most ${MAX_REPLACE_COUNT}`);
    }
    if (typeof count === "number") {
      charge(count);
      checkStringLength(subject.length + count * Math.max(0, by.length - search.length));
    }
    return original(args);
  });

  wrap("join", (original, args) => {
    const [separator, items] = args as [string, string[]];
    let length = Math.max(0, items.length - 1) * separator.length;
    for (const item of items) length += typeof item === "string" ? item.length : 0;
    checkStringLength(length);
    return original(args);
  });

  wrap("to_string", (original, args) => {
    if (typeof args[0] !== "string") checkStringLength(jsonSizeWithin(args[0], meter.maxChars));
    return original(args);
  });

  wrap("merge", (_original, args) => {
    // The library's rules (later objects win), with fields defined rather than assigned.
    const merged: Record<string, JSONValue> = {};
    for (const object of args as Array<Record<string, JSONValue>>) for (const key of Object.keys(object)) defineField(merged, key, object[key] ?? null);
    return merged;
  });

  wrap("group_by", (_original, args) => {
    const [items, exprefNode] = args as [JSONValue[], ExpressionNode];
    const keyOf = runtime.createKeyFunction(exprefNode, [TYPE_STRING]);
    // Building an object with many distinct keys costs more than a visit.
    charge(items.length * 2);
    // The library's rules, without Object.prototype in the way of keys such as "constructor".
    const groups = Object.create(null) as Record<string, JSONValue[]>;
    for (const item of items) (groups[keyOf(item ?? {}) as string] ??= []).push(item);
    return groups as JSONValue;
  });
}

function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "string") return value.length;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  return 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && Object.prototype.toString.call(value) === "[object Object]";
}

/**
 * The library's strictDeepEqual (own keys), charging one unit per compared node. Iterative: a
 * request body of a few kilobytes can nest deeper than a recursive walk's stack allows.
 */
function meteredDeepEqual(first: unknown, second: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[first, second]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    charge(1);
    const [left, right] = pair;
    if (left === right) continue;
    if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
    if (Array.isArray(left) && Array.isArray(right)) {
      if (left.length !== right.length) return false;
      for (let i = left.length - 1; i >= 0; i -= 1) pending.push([left[i], right[i]]);
      continue;
    }
    if (!isPlainObject(left) || !isPlainObject(right)) return false;
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    for (const key of leftKeys) {
      if (!Object.hasOwn(right, key)) return false;
      pending.push([left[key], right[key]]);
    }
  }
  return true;
}

/** Charges what a node built: array elements, and long strings by size (checked against the cap). */
function chargeResult<T>(result: T): T {
  if (Array.isArray(result)) charge(result.length);
  else if (typeof result === "string" && result.length > 64) {
    checkStringLength(result.length);
    charge(result.length >> 6);
  }
  return result;
}

const InterpreterBase = TreeInterpreter.constructor as new () => Interpreter;

class GuardedInterpreter extends InterpreterBase {
  constructor() {
    super();
    guardFunctions(this.runtime);
  }

  override visit(node: ExpressionNode, value: JSONValue | ExpressionNode): VisitResult {
    if ((meter.used += 1) > meter.maxWork) workLimitExceeded();
    switch (node.type) {
      case "Field":
        if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
        return Object.hasOwn(value, node.name) ? ((value as Record<string, JSONValue>)[node.name] ?? null) : null;
      case "Subexpression": {
        const left = this.visit(node.left, value);
        return left != null ? (this.visit(node.right, left) ?? null) : null;
      }
      case "Literal":
        return node.value;
      case "Current":
      case "Identity":
        return value;
      case "Function": {
        // Functions work over their arguments (sum, sort, split, keys...): charge their size, since
        // one big value can be passed to a function once per element of another array.
        const args: JSONValue[] = [];
        for (const child of node.children) {
          const argument = this.visit(child, value) as JSONValue;
          charge(sizeOf(argument));
          args.push(argument);
        }
        return chargeResult(this.runtime.callFunction(node.name, args));
      }
      case "MultiSelectHash": {
        const collected: Record<string, JSONValue> = {};
        for (const child of node.children) defineField(collected, child.name, this.visit(child.value, value) as JSONValue);
        return collected;
      }
      case "Comparator": {
        if (node.name !== "EQ" && node.name !== "NE") return super.visit(node, value);
        const equal = meteredDeepEqual(this.visit(node.left, value), this.visit(node.right, value));
        return node.name === "EQ" ? equal : !equal;
      }
      case "Flatten": {
        // The one operation that multiplies elements in a single step: count before building.
        const nested = this.visit(node.child, value);
        if (!Array.isArray(nested)) return null;
        let size = 0;
        for (const item of nested) size += Array.isArray(item) ? item.length : 1;
        charge(size);
        return nested.flat();
      }
      default:
        return chargeResult(super.visit(node, value));
    }
  }

  override withScope(scope: Record<string, JSONValue>): Interpreter {
    const child = new GuardedInterpreter();
    const from = this as unknown as InterpreterInternals;
    const to = child as unknown as InterpreterInternals;
    to._rootValue = from._rootValue;
    to._scope = from._scope.withScope(scope) as InterpreterInternals["_scope"];
    return child;
  }
}

const interpreter = new GuardedInterpreter();

/** Names and signatures of the functions expressions may call (for validation when saved). */
export function functionSignatures(): FunctionTable {
  return interpreter.runtime._functionTable;
}

/**
 * Evaluates a compiled expression over `data` within the limits. Throws AppError
 * ("validation_failed") when a limit is hit, and the library's Error for runtime errors (wrong
 * argument types, unknown variables).
 */
export function evaluateExpression(ast: ExpressionNode, data: unknown, limits: EvaluationLimits): JSONValue {
  const previous = meter;
  meter = { maxWork: limits.maxWork, maxChars: limits.maxChars, used: 0 };
  try {
    return interpreter.search(ast, data as JSONValue);
  } finally {
    meter = previous;
  }
}
