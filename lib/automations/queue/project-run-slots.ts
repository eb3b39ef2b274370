import type { Redis } from "ioredis";

/**
 * A per-project semaphore in Redis shared by every worker: at most `limit` runs of one project at
 * once, whichever instances run them. A slot is a sorted-set member scored by its expiry, so a
 * worker that dies holding slots frees them when they expire (after the longest a run may take).
 *
 * The same script marks each attempt as started; the mark is removed when the attempt ends. A job
 * that finds its attempt already marked was started before by a worker that died mid-run, and its
 * log says the run is a re-run after an interruption.
 */
const ACQUIRE = `
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[1])
if not redis.call("ZSCORE", KEYS[1], ARGV[3]) and redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call("ZADD", KEYS[1], ARGV[2], ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[5])
if redis.call("SET", KEYS[2], "1", "NX", "PX", ARGV[6]) then
  return 1
end
return 2
`;

const RELEASE = `
redis.call("ZREM", KEYS[1], ARGV[1])
redis.call("DEL", KEYS[2])
return 1
`;

const FORGET_GATHER_MS = 50;

// An attempt's start mark outlives any run; it only matters until the job is re-run or done.
const START_MARK_TTL_MS = 24 * 3_600_000;

export type SlotGrant = "granted" | "after interruption" | "busy";

export interface ProjectRunSlotsOptions {
  redis: Redis;
  keyPrefix: string;
  limit: number;
  /** How long a slot is held at most: the run budget plus the log write, with margin. */
  slotTtlMs: number;
}

type SlotScript = (...args: Array<string | number>) => Promise<unknown>;

export class ProjectRunSlots {
  private readonly acquireScript: SlotScript;
  private readonly releaseScript: SlotScript;

  constructor(private readonly options: ProjectRunSlotsOptions) {
    // Scripts by SHA (EVALSHA, loaded on first use): each call sends the keys and arguments, not the script.
    const redis = options.redis as Redis & Record<string, SlotScript | undefined>;
    if (!redis.flowpointAcquireRunSlot) redis.defineCommand("flowpointAcquireRunSlot", { numberOfKeys: 2, lua: ACQUIRE });
    if (!redis.flowpointReleaseRunSlot) redis.defineCommand("flowpointReleaseRunSlot", { numberOfKeys: 2, lua: RELEASE });
    this.acquireScript = redis.flowpointAcquireRunSlot!.bind(redis);
    this.releaseScript = redis.flowpointReleaseRunSlot!.bind(redis);
  }

  private slotsKey(projectId: string): string {
    return `${this.options.keyPrefix}slots:${projectId}`;
  }

  private startedKey(attemptKey: string): string {
    return `${this.options.keyPrefix}started:${attemptKey}`;
  }

  private keys(projectId: string, attemptKey: string): [string, string] {
    return [this.slotsKey(projectId), this.startedKey(attemptKey)];
  }

  /** Takes one of the project's slots for `holder` (a job id) and marks the attempt started. */
  async acquire(projectId: string, holder: string, attemptKey: string): Promise<SlotGrant> {
    const now = Date.now();
    const { slotTtlMs, limit } = this.options;
    const result = await this.acquireScript(...this.keys(projectId, attemptKey), now, now + slotTtlMs, holder, limit, slotTtlMs * 2, START_MARK_TTL_MS);
    return result === 0 ? "busy" : result === 1 ? "granted" : "after interruption";
  }

  /** Gives the slot back and keeps the attempt's start mark (forgetAttempt removes it once the run is logged). */
  async freeSlot(projectId: string, holder: string): Promise<void> {
    await this.options.redis.zrem(this.slotsKey(projectId), holder);
  }

  private forgotten: string[] = [];

  /**
   * Removes the start mark of an attempt that ended (logged), with the marks of other attempts
   * ending within 50 ms in one command. Nothing reads a finished attempt's mark again: a retry or a
   * "Run again" is another attempt; a mark left behind (Redis down, a crash) expires on its own.
   */
  forgetAttempt(attemptKey: string): void {
    this.forgotten.push(this.startedKey(attemptKey));
    if (this.forgotten.length > 1) return;
    setTimeout(() => {
      const keys = this.forgotten;
      this.forgotten = [];
      this.options.redis.del(...keys).catch(() => undefined);
    }, FORGET_GATHER_MS).unref();
  }

  /** Gives the slot back and removes the attempt's start mark at once (an attempt that will be started again). */
  async release(projectId: string, holder: string, attemptKey: string): Promise<void> {
    await this.releaseScript(...this.keys(projectId, attemptKey), holder);
  }
}
