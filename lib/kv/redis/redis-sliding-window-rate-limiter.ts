import type { Redis as IORedis } from "ioredis";
import type { BackendGuard } from "@/lib/kv/internal/backend-guard";
import { BoundedMap } from "@/lib/kv/internal/bounded-map";
import { rateLimitResultOf, unavailableRateLimitResult, windowMsOf } from "@/lib/kv/internal/kv-arguments";
import type { RateLimiter, RateLimitResult, RateLimitRule } from "@/lib/kv/kv";
import { assertRedisConnectable } from "./ioredis-requester";

/**
 * @upstash/ratelimit's single-region sliding window script (2.2.0), without its dynamic-limit key
 * and the Upstash-only shebang flags: the same keys and counts, so instances running either
 * implementation count together (the benchmark's reference runs it too).
 */
export const SLIDING_WINDOW_SCRIPT = `
local currentKey  = KEYS[1]
local previousKey = KEYS[2]
local tokens      = tonumber(ARGV[1])
local now         = ARGV[2]
local window      = ARGV[3]
local incrementBy = tonumber(ARGV[4])

local requestsInCurrentWindow = redis.call("GET", currentKey)
if requestsInCurrentWindow == false then
  requestsInCurrentWindow = 0
end

local requestsInPreviousWindow = redis.call("GET", previousKey)
if requestsInPreviousWindow == false then
  requestsInPreviousWindow = 0
end
local percentageInCurrent = ( now % window ) / window
requestsInPreviousWindow = math.floor(( 1 - percentageInCurrent ) * requestsInPreviousWindow)

if incrementBy > 0 and requestsInPreviousWindow + requestsInCurrentWindow >= tokens then
  return {-1, tokens}
end

local newValue = redis.call("INCRBY", currentKey, incrementBy)
if newValue == incrementBy then
  redis.call("PEXPIRE", currentKey, window * 2 + 1000)
end
return {tokens - ( newValue + requestsInPreviousWindow ), tokens}
`;

/**
 * Adds calls already admitted (RateLimitRule.batchCounts) to the window's count, without the
 * check: they were let through. Answers the current and previous windows' counts.
 */
export const ADD_ADMITTED_SCRIPT = `
local incrementBy = tonumber(ARGV[1])
local current = redis.call("INCRBY", KEYS[1], incrementBy)
if current == incrementBy then
  redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
local previous = redis.call("GET", KEYS[2])
if previous == false then
  previous = 0
end
return {current, tonumber(previous)}
`;

const COMMAND = "flowpointSlidingWindow";
const ADD_COMMAND = "flowpointAddAdmitted";

type ScriptClient = IORedis & {
  [COMMAND](currentKey: string, previousKey: string, tokens: number, now: number, windowMs: number, incrementBy: number): Promise<[number, number]>;
  [ADD_COMMAND](currentKey: string, previousKey: string, incrementBy: number, expireMs: number): Promise<[number, number]>;
};

/** Calls one instance admits for a caller without the store having counted them, at most (batchCounts). */
export const BATCHED_COUNT_MAX_UNSENT = 10;
/** How long admitted calls wait to be counted in the store together. */
const BATCH_FLUSH_MS = 20;
/** A count older than this is asked again: the window has slid and other instances have counted. */
const BATCH_COUNT_FRESH_MS = 1000;
/** Below the limit by less than this share, every call asks the store, as without batches. */
const BATCH_HEADROOM_SHARE = 0.1;

/** What this instance knows of a caller's window under a batchCounts rule. */
interface BatchedCount {
  identifier: string;
  windowMs: number;
  bucket: number;
  /** The window's weighted count in the store when last asked (the script's `tokens - remaining`). */
  counted: number;
  countedAt: number;
  /** Admitted here, on their way to the store. */
  sending: number;
  /** Admitted here, waiting for the next batch. */
  unsent: number;
}

/** The sliding window's weighted count, as the scripts compute it. */
function weightedCount(current: number, previous: number, now: number, windowMs: number): number {
  return current + Math.floor((1 - (now % windowMs) / windowMs) * previous);
}

/**
 * The sliding window of shared/sliding-window-rate-limiter.ts for Redis over TCP, sent straight
 * through ioredis: the script is a command of the client (EVALSHA, EVAL when Redis has not seen it
 * yet), without @upstash/ratelimit's and @upstash/redis' layers of objects and promises on every
 * public call (about 3 % of the simplest invocation's CPU). Keys are `<prefix>rl:<windowMs>:<key>:<bucket>`
 * as there; a caller refused once is answered from the in-process block list until its bucket ends,
 * still behind the guard (an unreachable backend fails open or closed as the rule says, kv.ts).
 * A rule with `batchCounts` is answered from this instance's count while the caller is well below
 * its limit, and the calls so admitted are added in the store in batches (ADD_ADMITTED_SCRIPT).
 */
export class RedisSlidingWindowRateLimiter implements RateLimiter {
  private readonly blockedUntil = new BoundedMap<string, number>(10_000);
  private readonly batchedCounts = new BoundedMap<string, BatchedCount>(10_000);
  /** Batched counts with calls waiting to be sent. */
  private readonly unsent = new Set<BatchedCount>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly client: ScriptClient;

  constructor(private readonly options: { client: IORedis; keyPrefix: string; guard: BackendGuard }) {
    options.client.defineCommand(COMMAND, { numberOfKeys: 2, lua: SLIDING_WINDOW_SCRIPT });
    options.client.defineCommand(ADD_COMMAND, { numberOfKeys: 2, lua: ADD_ADMITTED_SCRIPT });
    this.client = options.client as ScriptClient;
  }

  limit(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    let windowMs: number;
    try {
      windowMs = windowMsOf(rule);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const identifier = `${this.options.keyPrefix}rl:${windowMs}:${key}`;
    if (rule.batchCounts) {
      const admitted = this.admitFromBatchedCount(identifier, rule, windowMs);
      if (admitted) return Promise.resolve(admitted);
    }
    return this.ask(identifier, rule, windowMs);
  }

  /** Sends the calls admitted without asking now (tests, shutdown); resolves once the store counted them. */
  async flushBatchedCounts(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    await this.flush();
  }

  private admitFromBatchedCount(identifier: string, rule: RateLimitRule, windowMs: number): RateLimitResult | null {
    const batched = this.batchedCounts.get(identifier);
    if (!batched) return null;
    const now = Date.now();
    const bucket = Math.floor(now / windowMs);
    const admittedHere = batched.sending + batched.unsent;
    const ceiling = rule.limit - Math.ceil(rule.limit * BATCH_HEADROOM_SHARE);
    const fresh = batched.bucket === bucket && now - batched.countedAt <= BATCH_COUNT_FRESH_MS;
    if (!fresh || admittedHere >= BATCHED_COUNT_MAX_UNSENT || batched.counted + admittedHere + 1 > ceiling) return null;
    batched.unsent++;
    this.unsent.add(batched);
    this.flushTimer ??= setTimeout(() => void this.flush(), BATCH_FLUSH_MS).unref();
    return rateLimitResultOf(rule, { success: true, remaining: rule.limit - batched.counted - admittedHere - 1, resetAt: (bucket + 1) * windowMs }, now);
  }

  /** Adds every batched count's unsent calls in the store, one script call each, pipelined. */
  private async flush(): Promise<void> {
    this.flushTimer = null;
    const batches = [...this.unsent];
    this.unsent.clear();
    await Promise.all(batches.map((batched) => this.send(batched)));
  }

  private async send(batched: BatchedCount): Promise<void> {
    const count = batched.unsent;
    if (count === 0) return;
    batched.unsent = 0;
    batched.sending += count;
    const { identifier, windowMs, bucket } = batched;
    const added = await this.options.guard.run(
      "rate limiter",
      async () => {
        assertRedisConnectable(this.client);
        return this.client[ADD_COMMAND](`${identifier}:${bucket}`, `${identifier}:${bucket - 1}`, count, windowMs * 2 + 1000);
      },
      () => null,
      "calls admitted from this instance's count went uncounted",
    );
    batched.sending -= count;
    if (added === null) {
      // Asked again on the next call: the store's count is unknown now.
      batched.countedAt = 0;
      return;
    }
    const now = Date.now();
    // A call answered in the next window (bucket + 1) counts the calls of this one as its previous window's.
    if (Math.floor(now / windowMs) !== bucket) return;
    batched.counted = weightedCount(added[0], added[1], now, windowMs);
    batched.countedAt = now;
  }

  private ask(identifier: string, rule: RateLimitRule, windowMs: number): Promise<RateLimitResult> {
    const failClosed = rule.whenUnavailable === "deny";
    return this.options.guard.run(
      "rate limiter",
      () => this.count(identifier, rule, windowMs),
      () => unavailableRateLimitResult(rule, windowMs),
      failClosed ? "request refused (fails closed for this rule)" : "request allowed (fails open)",
    );
  }

  private async count(identifier: string, rule: RateLimitRule, windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    const blockedUntil = this.blockedUntil.get(identifier);
    if (blockedUntil !== undefined) {
      if (blockedUntil >= now) return rateLimitResultOf(rule, { success: false, remaining: 0, resetAt: blockedUntil }, now);
      this.blockedUntil.delete(identifier);
    }
    assertRedisConnectable(this.client);
    const bucket = Math.floor(now / windowMs);
    const resetAt = (bucket + 1) * windowMs;
    if (!rule.batchCounts) {
      const [remaining] = await this.client[COMMAND](`${identifier}:${bucket}`, `${identifier}:${bucket - 1}`, rule.limit, now, windowMs, 1);
      const success = remaining >= 0;
      if (!success) this.blockedUntil.set(identifier, resetAt);
      return rateLimitResultOf(rule, { success, remaining, resetAt }, now);
    }
    // Calls admitted here and not yet sent go with this one, so that near the limit the store's
    // check sees them (one instance stays exact); a refusal adds none of them.
    const batched = this.batchedCountOf(identifier, windowMs, bucket);
    const carried = batched.unsent;
    batched.unsent = 0;
    batched.sending += carried;
    let remaining: number;
    try {
      [remaining] = await this.client[COMMAND](`${identifier}:${bucket}`, `${identifier}:${bucket - 1}`, rule.limit, now, windowMs, 1 + carried);
    } finally {
      batched.sending -= carried;
    }
    const success = remaining >= 0;
    if (!success) this.blockedUntil.set(identifier, resetAt);
    batched.counted = success ? rule.limit - remaining : rule.limit;
    batched.countedAt = Date.now();
    return rateLimitResultOf(rule, { success, remaining: remaining - batched.sending - batched.unsent, resetAt }, now);
  }

  private batchedCountOf(identifier: string, windowMs: number, bucket: number): BatchedCount {
    let batched = this.batchedCounts.get(identifier);
    if (!batched || batched.bucket !== bucket) {
      // Calls of an earlier window still unsent keep their own entry in `unsent` until the batch goes.
      batched = { identifier, windowMs, bucket, counted: 0, countedAt: 0, sending: 0, unsent: 0 };
      this.batchedCounts.set(identifier, batched);
    }
    return batched;
  }
}
