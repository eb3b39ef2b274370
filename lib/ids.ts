import { randomBytes } from "node:crypto";

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
let lastRandom = 0n;
const RANDOM_BITS = 80n;
const RANDOM_MAX = (1n << RANDOM_BITS) - 1n;

function encodeRandom(value: bigint): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(rest & 31n)] + out;
    rest >>= 5n;
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
  if (now === lastTime && lastRandom < RANDOM_MAX) {
    lastRandom += 1n;
  } else {
    lastTime = now;
    // The top bit stays clear so the counter has room before it would overflow.
    lastRandom = BigInt(`0x${randomBytes(10).toString("hex")}`) >> 1n;
  }
  return `${ID_PREFIXES[kind]}_${encodeTime(now, 10)}${encodeRandom(lastRandom)}`;
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
