import { AppError } from "@/lib/errors";
import { createFlowContext, type FlowContext } from "@/lib/flow/engine/context";

/**
 * Shared pieces of the flow fuzz tests (security issue 9, item 11): a seeded PRNG, random JSON
 * contexts full of hostile keys and strings, and the prototype-pollution check. No dependency: a
 * failure names its case seed, `FUZZ_SEED=<n>` replays a whole run and `FUZZ_CASES=<n>` hunts longer.
 * Regression seeds replay with the generators as they are here: changing a generator changes
 * what a seed produces, so re-check the kept seeds (against the unfixed code) after doing so.
 */

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG; the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The run's base seed: FUZZ_SEED when set (to replay a failure), else the suite's fixed default. */
export function fuzzBaseSeed(defaultSeed: number): number {
  const fromEnv = process.env.FUZZ_SEED;
  if (fromEnv === undefined || fromEnv.trim() === "") return defaultSeed >>> 0;
  const seed = Number(fromEnv);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${fromEnv}`);
  return seed >>> 0;
}

/** How many random cases a suite runs: its default, or FUZZ_CASES for a longer hunt. */
export function fuzzCaseCount(defaultCount: number): number {
  const fromEnv = Number(process.env.FUZZ_CASES);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : defaultCount;
}

/** The seed of case `index` of a run: spread out so neighbouring cases share nothing. */
export function caseSeed(baseSeed: number, index: number): number {
  return (baseSeed + Math.imul(index + 1, 0x9e3779b9)) >>> 0;
}

/**
 * Runs `count` cases from the base seed, then the regression seeds (cases that once found a bug).
 * A failing case's error names its seed, so it can be kept as a regression case.
 */
export function runCases(options: { baseSeed: number; count: number; regressionSeeds?: readonly number[] }, check: (random: Random, seed: number) => void): number {
  const seeds = [...(options.regressionSeeds ?? []), ...Array.from({ length: options.count }, (_, index) => caseSeed(options.baseSeed, index))];
  for (const seed of seeds) {
    try {
      check(new Random(seed), seed);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new Error(`fuzz case failed with case seed ${seed} (base FUZZ_SEED=${options.baseSeed}): ${reason}`, { cause: error });
    }
  }
  return seeds.length;
}

export class Random {
  private readonly next: () => number;

  constructor(readonly seed: number) {
    this.next = mulberry32(seed);
  }

  float(): number {
    return this.next();
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)] as T;
  }
}

/** Keys that reach prototypes or built-ins when code uses plain property access. */
export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "length", "polluted"] as const;

/** Keys made only of characters that are plain text in every content type (usable in template paths). */
export const PATH_SAFE_KEYS = [...HOSTILE_KEYS, "a", "b", "name", "items", "x-y", "0", "1", "2", "title", "é"] as const;

/** Keys that are awkward elsewhere: empty, with markup, quotes, separators or dots. */
const ODD_KEYS = ["", " ", "a.b", "<b>", '"', ",", "\n", "{{body.a}}", "😀"];

/** Strings aimed at each content type's escaping and at the evaluators' coercions. */
export const HOSTILE_STRINGS = [
  "",
  "plain",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  "]]>",
  "<![CDATA[x]]>",
  "&amp;",
  "&#x3C;",
  '=HYPERLINK("http://evil")',
  "+1",
  "-2",
  "@SUM(A1)",
  "\t=1+1",
  "\r=1+1",
  'say "hi"',
  "a,b",
  "line1\nline2",
  "row\r\nnext",
  "{{body.a}}",
  "{{steps.t}}",
  "10",
  "9",
  " 10 ",
  "1e3",
  "-0",
  "1e400",
  "true",
  "false",
  "null",
  "[]",
  "{}",
  '{"admin": true}',
  "\u0000\u0001\u001f\u007f",
  "\uD800",
  "\uDFFF",
  "\uFFFE",
  "😀",
  "\u2028\u2029",
  "__proto__",
  "constructor",
  "\\",
  "\\u0022",
] as const;

const NUMBERS = [0, -0, 1, -2, 9, 10, 1.5, -1e-7, 1e21, 2 ** 53 + 2, -(2 ** 31)];

export function randomString(random: Random): string {
  const roll = random.float();
  if (roll < 0.6) return random.pick(HOSTILE_STRINGS);
  if (roll < 0.95) {
    let text = "";
    const length = random.int(12);
    for (let i = 0; i < length; i++) {
      text += random.chance(0.7) ? String.fromCharCode(random.between(0x20, 0x7e)) : String.fromCharCode(random.int(0x10000));
    }
    return text;
  }
  return random.pick(HOSTILE_STRINGS).repeat(random.between(20, 200));
}

export function randomNumber(random: Random): number {
  return random.chance(0.5) ? random.pick(NUMBERS) : random.between(-1000, 1000) / (random.chance(0.5) ? 1 : 8);
}

export function randomKey(random: Random): string {
  const roll = random.float();
  if (roll < 0.85) return random.pick(PATH_SAFE_KEYS);
  if (roll < 0.95) return random.pick(ODD_KEYS);
  return randomString(random);
}

/**
 * Sets an own, enumerable property, as JSON.parse does: `__proto__` becomes a field, never the
 * prototype (a request body parsed from JSON has exactly such fields).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A value nested `depth` levels deep, as a small request body can be (`[[[[…]]]]`). */
export function deepChain(random: Random, depth: number): unknown {
  let value: unknown = random.chance(0.5) ? randomString(random) : null;
  const arrays = random.chance(0.5);
  for (let i = 0; i < depth; i++) {
    if (arrays) value = [value];
    else {
      const wrapper: Record<string, unknown> = {};
      setOwn(wrapper, random.pick(["a", "__proto__", "constructor"]), value);
      value = wrapper;
    }
  }
  return value;
}

export interface ContextOptions {
  /** Chance that the body (or a step output) holds a chain thousands of levels deep: stack-overflow bait. */
  deepChance?: number;
}

export function randomJson(random: Random, depth = 3): unknown {
  const roll = random.float();
  if (depth <= 0 || roll < 0.45) {
    const scalar = random.int(5);
    if (scalar === 0) return null;
    if (scalar === 1) return random.chance(0.5);
    if (scalar === 2) return randomNumber(random);
    return randomString(random);
  }
  if (roll < 0.7) return Array.from({ length: random.int(5) }, () => randomJson(random, depth - 1));
  const object: Record<string, unknown> = {};
  const size = random.int(6);
  for (let i = 0; i < size; i++) setOwn(object, randomKey(random), randomJson(random, depth - 1));
  if (random.chance(0.2)) setOwn(object, "__proto__", { polluted: "yes", toString: "hijacked" });
  return object;
}

export function randomObject(random: Random, depth = 3): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const size = random.between(1, 7);
  for (let i = 0; i < size; i++) setOwn(object, randomKey(random), randomJson(random, depth - 1));
  return object;
}

/** Output names the engine accepts, including ones that shadow Object.prototype's members. */
export const STEP_NAMES = ["t", "out", "constructor", "toString", "valueOf", "hasOwnProperty", "prototype", "polluted"] as const;

/** A run context as the engine builds it: a JSON body, query strings, maybe a user, step outputs. */
export function randomContext(random: Random, options: ContextOptions = {}): FlowContext {
  const query: Record<string, unknown> = {};
  for (let i = random.int(4); i > 0; i--) {
    const key = random.pick(PATH_SAFE_KEYS.filter((name) => name !== "__proto__"));
    setOwn(query, key, random.chance(0.8) ? randomString(random) : [randomString(random), randomString(random)]);
  }
  const context = createFlowContext({
    body: randomObject(random, 4),
    query,
    user: random.chance(0.5) ? randomObject(random, 2) : null,
  });
  for (let i = random.int(3); i > 0; i--) context.steps[random.pick(STEP_NAMES)] = randomJson(random, 3);
  if (options.deepChance !== undefined && random.chance(options.deepChance)) {
    // A 100 KB body can nest ~50 000 levels; a few thousand already overflow recursive code.
    // Built from its own seed, so a twin of the same shape (but not the same object) can sit beside it.
    const shapeSeed = random.int(2 ** 32);
    const depth = random.between(3_000, 8_000);
    const deep = () => deepChain(new Random(shapeSeed), depth);
    if (random.chance(0.7)) setOwn(context.body as Record<string, unknown>, random.pick(PATH_SAFE_KEYS), deep());
    else context.steps[random.pick(STEP_NAMES)] = deep();
    if (random.chance(0.5)) setOwn(context.body as Record<string, unknown>, random.pick(PATH_SAFE_KEYS), random.chance(0.5) ? deep() : [deep(), "x"]);
  }
  return context;
}

/** Keys that are literal text in every content type and in a JSON string literal. */
const PATH_SAFE_KEY = /^[A-Za-z0-9_\-é]+$/;

/** A random walk down the context's own keys (made of path-safe characters), or a dead end. */
export function randomPath(random: Random, context: FlowContext): string {
  const roots = ["body", "query", "user", "steps", "trigger"] as const;
  // The body is what callers control, so most paths start there.
  const root = random.chance(0.5) ? "body" : random.chance(0.9) ? random.pick(roots) : random.pick(["nope", "constructor", "__proto__"]);
  const segments: string[] = [root];
  let current: unknown = (context as unknown as Record<string, unknown>)[root];
  const length = random.int(4);
  for (let i = 0; i < length; i++) {
    let segment: string;
    if (Array.isArray(current) && random.chance(0.7)) segment = random.chance(0.85) ? String(random.int(current.length + 1)) : "length";
    else if (current !== null && typeof current === "object" && random.chance(0.8)) {
      const keys = Object.keys(current).filter((key) => PATH_SAFE_KEY.test(key));
      segment = keys.length > 0 ? random.pick(keys) : random.pick(PATH_SAFE_KEYS);
    } else segment = random.pick(PATH_SAFE_KEYS);
    segments.push(segment);
    current = current !== null && typeof current === "object" && Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
  }
  return segments.join(".");
}

export function randomPlaceholder(random: Random, context: FlowContext): string {
  const path = randomPath(random, context);
  const roll = random.float();
  if (roll < 0.75) return `{{${path}}}`;
  if (roll < 0.9) return `{{ ${path}\t}}`;
  return random.pick([`{{${path}.}}`, `{{.${path}}}`, `{{${path}..a}}`, "{{}}", `{{{${path}}}}`, `{${path}}`]);
}

const PROTOTYPES: ReadonlyArray<[string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["String.prototype", String.prototype],
  ["Function.prototype", Function.prototype],
  ["Number.prototype", Number.prototype],
];

export type PrototypeSnapshot = ReadonlyArray<readonly string[]>;

export function snapshotPrototypes(): PrototypeSnapshot {
  return PROTOTYPES.map(([, prototype]) => Reflect.ownKeys(prototype).map(String).sort());
}

/** Throws when any built-in prototype gained or lost a property, or a plain object inherits `polluted`. */
export function assertPrototypesUntouched(before: PrototypeSnapshot): void {
  const after = snapshotPrototypes();
  PROTOTYPES.forEach(([name], index) => {
    const was = (before[index] ?? []).join(",");
    const now = (after[index] ?? []).join(",");
    if (was !== now) throw new Error(`${name} changed: ${now}`);
  });
  const probe = {} as Record<string, unknown>;
  if (probe.polluted !== undefined || ([] as unknown as Record<string, unknown>).polluted !== undefined) throw new Error("a plain object inherits `polluted`");
}

/**
 * Only the platform's own failures may leave a step runner or renderer: an AppError with a code.
 * A TypeError or RangeError (a stack overflow included) would be a bug the fuzz found.
 */
export function expectOnlyAppErrors<T>(action: () => T): { value: T } | { error: AppError } {
  try {
    return { value: action() };
  } catch (error) {
    if (error instanceof AppError) return { error };
    throw error;
  }
}

/** Walks a value without recursion: every object's prototype must be Object.prototype (or none). */
export function assertPlainJson(value: unknown): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current === "string" || typeof current === "boolean") continue;
    if (typeof current === "number") continue;
    if (typeof current !== "object") throw new Error(`not JSON data: ${typeof current}`);
    if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
      continue;
    }
    const prototype = Object.getPrototypeOf(current) as unknown;
    if (prototype !== Object.prototype && prototype !== null) throw new Error("an object in the output has a prototype taken from data");
    for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
  }
}
