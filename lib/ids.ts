import { randomFillSync } from "node:crypto";

export const ID_PREFIXES = {
  user: "usr",
  workspace: "ws",
  membership: "mem",
  invitation: "inv",
  project: "prj",
  apiKey: "key",
  schema: "sch",
  endpoint: "ep",
  automation: "aut",
  emailTemplate: "tpl",
  execution: "exe",
  record: "rec",
  file: "fil",
  secret: "sec",
  endUser: "usr",
  submission: "sub",
  event: "evt",
  /** Request ids minted for log lines (lib/http/request-id.ts); never stored. */
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lowercase

function encodeTime(ms: number, length: number): string {
  let out = "";
  let value = ms;
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

let lastTime = -1;
// The 80 random bits as two 40-bit halves: plain numbers are exact up to 2^53, and number
// arithmetic is several times cheaper than BigInt's on a path that mints ids for every write.
const HALF = 2 ** 40;
let randomHigh = 0;
let randomLow = 0;

// Random bytes are drawn from a pool filled a few hundred ids at a time, not one call per id.
const randomPool = Buffer.alloc(4_000);
let randomPoolOffset = randomPool.length;

function takeRandomHalves(): void {
  if (randomPoolOffset + 10 > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  // The top bit stays clear so the counter has room before it would overflow.
  randomHigh = randomPool.readUIntBE(randomPoolOffset, 5) % (HALF / 2);
  randomLow = randomPool.readUIntBE(randomPoolOffset + 5, 5);
  randomPoolOffset += 10;
}

/** Eight base32 characters of a 40-bit half. */
function encodeHalf(value: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/**
 * `prefix_` + 10 characters of time + 16 random characters. Time first so that ids sort by creation,
 * which lets "newest first" listings use the primary key; within one millisecond the random part
 * counts up (as monotonic ULIDs do), so ids made in one process also sort in creation order.
 */
export function newId(kind: IdKind): string {
  const now = Date.now();
  if (now === lastTime && !(randomHigh === HALF - 1 && randomLow === HALF - 1)) {
    randomLow += 1;
    if (randomLow === HALF) {
      randomLow = 0;
      randomHigh += 1;
    }
  } else {
    lastTime = now;
    takeRandomHalves();
  }
  return `${ID_PREFIXES[kind]}_${encodeTime(now, 10)}${encodeHalf(randomHigh)}${encodeHalf(randomLow)}`;
}

/**
 * The smallest id of `kind` that newId could have made at `ms`: every id made before that
 * millisecond sorts below it, so a time bound becomes a primary-key bound.
 */
export function smallestIdAt(kind: IdKind, ms: number): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(Math.max(0, Math.floor(ms)), 10)}${"0".repeat(16)}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`) && /^[a-z]+_[0-9a-z]{26}$/.test(id);
}
