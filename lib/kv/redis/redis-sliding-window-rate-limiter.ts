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

const COMMAND = "flowpointSlidingWindow";

type ScriptClient = IORedis & {
  [COMMAND](currentKey: string, previousKey: string, tokens: number, now: number, windowMs: number, incrementBy: number): Promise<[number, number]>;
};

/**
 * The sliding window of shared/sliding-window-rate-limiter.ts for Redis over TCP, sent straight
 * through ioredis: the script is a command of the client (EVALSHA, EVAL when Redis has not seen it
 * yet), without @upstash/ratelimit's and @upstash/redis' layers of objects and promises on every
 * public call (about 3 % of the simplest invocation's CPU). Keys are `<prefix>rl:<windowMs>:<key>:<bucket>`
 * as there; a caller refused once is answered from the in-process block list until its bucket ends,
 * still behind the guard (an unreachable backend fails open or closed as the rule says, kv.ts).
 */
export class RedisSlidingWindowRateLimiter implements RateLimiter {
  private readonly blockedUntil = new BoundedMap<string, number>(10_000);
  private readonly client: ScriptClient;

  constructor(private readonly options: { client: IORedis; keyPrefix: string; guard: BackendGuard }) {
    options.client.defineCommand(COMMAND, { numberOfKeys: 2, lua: SLIDING_WINDOW_SCRIPT });
    this.client = options.client as ScriptClient;
  }

  async limit(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    const windowMs = windowMsOf(rule);
    const failClosed = rule.whenUnavailable === "deny";
    return this.options.guard.run(
      "rate limiter",
      () => this.count(`${this.options.keyPrefix}rl:${windowMs}:${key}`, rule, windowMs),
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
    const [remaining] = await this.client[COMMAND](`${identifier}:${bucket}`, `${identifier}:${bucket - 1}`, rule.limit, now, windowMs, 1);
    const success = remaining >= 0;
    if (!success) this.blockedUntil.set(identifier, resetAt);
    return rateLimitResultOf(rule, { success, remaining, resetAt }, now);
  }
}
