import { Worker } from "node:worker_threads";
import { FIELD_LIMITS } from "./field-limits";
import { PATTERN_FLAGS } from "./pattern-safety";

/**
 * The second guard against catastrophic patterns (the first is the static check in
 * pattern-safety.ts, which cannot see every polynomial blow-up such as `\d*\d*\d*x`): before a
 * schema is saved, each new pattern runs against adversarial inputs of the longest length the
 * field allows, in a worker thread that is terminated when a pattern takes too long. Server-side
 * only; it runs when schemas are saved, never on record writes.
 */

export interface PatternToProbe {
  pattern: string;
  /** The longest value the field accepts (its max, else the string limit). */
  maxLength: number;
}

export interface ProbeOptions {
  /** Time one pattern may take for all its probes. */
  timeoutMs?: number;
}

// Runs inside the worker: builds inputs from common characters and the pattern's own literal
// characters, repeated to the field's length and ending in a character that rarely matches,
// which is what makes a backtracking engine try every split.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const base = ["a", "A", "0", " ", ".", "-", "_", "@", "/", ":", "é", "\\t"];
workerData.patterns.forEach(({ pattern, maxLength }, index) => {
  parentPort.postMessage({ started: index });
  const regex = new RegExp(pattern, workerData.flags);
  const literals = [...new Set(pattern.replace(/\\\\./g, "").replace(/[\\\\^$.*+?()[\\]{}|]/g, ""))].slice(0, 12);
  const chars = [...new Set([...base, ...literals])];
  const leading = (/^\\^?([^\\\\^$.*+?()[\\]{}|]*)/.exec(pattern) || ["", ""])[1];
  const units = [...chars];
  for (const first of literals.length ? literals : base.slice(0, 4)) {
    for (const second of chars.slice(0, 8)) units.push(first + second);
  }
  for (const unit of units) {
    const body = unit.repeat(Math.max(1, Math.floor((maxLength - leading.length - 1) / unit.length)));
    regex.test(leading + body + "\\u0001");
    regex.test(body + "\\u0001");
  }
});
parentPort.postMessage({ finished: true });
`;

/**
 * Answers the first pattern that did not finish its probes in time, or null when all did.
 * Patterns must already have passed checkPattern (they compile).
 */
export async function findSlowPattern(patterns: readonly PatternToProbe[], options: ProbeOptions = {}): Promise<string | null> {
  if (patterns.length === 0) return null;
  const timeoutMs = options.timeoutMs ?? 1_000;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { patterns: patterns.map((item) => ({ pattern: item.pattern, maxLength: Math.min(item.maxLength, FIELD_LIMITS.stringMaxLength) })), flags: PATTERN_FLAGS },
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  });
  return new Promise<string | null>((resolve, reject) => {
    let current = -1;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: string | null) => {
      if (timer) clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      resolve(result);
    };
    worker.on("message", (message: { started?: number; finished?: boolean }) => {
      if (message.finished) return finish(null);
      if (typeof message.started === "number") {
        current = message.started;
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => finish(patterns[current]?.pattern ?? null), timeoutMs);
      }
    });
    worker.on("error", (error) => {
      if (timer) clearTimeout(timer);
      worker.removeAllListeners();
      reject(error);
    });
    worker.on("exit", () => {
      if (timer) clearTimeout(timer);
    });
  });
}
