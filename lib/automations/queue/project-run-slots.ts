import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * A per-project semaphore in Redis shared by every worker: at most `limit` runs of one project at
 * once, whichever instances run them. A slot is a sorted-set member scored by its expiry.
 *
 * Slots are leased to a worker process rather than taken per run: at hundreds of runs a second, a
 * script call to take each slot and another to give it back were most of a run's Redis traffic (and
 * each socket write is a costly system call on small machines). A worker keeps a slot it took while
 * runs of the same project wait for one here, and hands it from run to run without a Redis call. It
 * gives the slot back when no run here wants it for a moment, or once it has kept it for
 * `handoffLimitMs`, so that other workers' jobs of the project get their turn. Held slots are renewed
 * every third of `leaseTtlMs`; a worker that dies frees its slots when they expire.
 */
const ACQUIRE = `
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[1])
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call("ZADD", KEYS[1], ARGV[2], ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[5])
return 1
`;

export interface ProjectRunSlotsOptions {
  redis: Redis;
  keyPrefix: string;
  limit: number;
  /** How long a slot outlives a worker that stopped renewing it (died, or lost Redis). */
  leaseTtlMs?: number;
  /** How long a worker may keep handing one slot from run to run before it gives it back. */
  handoffLimitMs?: number;
  /** How long a slot no run here wants is kept for the next run of the project. */
  lingerMs?: number;
}

/** One slot of a project held by this worker. */
export interface RunSlot {
  readonly projectId: string;
  readonly member: string;
  /** When this worker took the slot from Redis. */
  readonly takenAt: number;
}

interface HeldSlot extends RunSlot {
  inUse: boolean;
  /** Renewal found the slot gone (expired while Redis was away): it is dropped, not handed on. */
  lost: boolean;
  lingerTimer: NodeJS.Timeout | null;
}

/** A run of this worker waiting in a project's line (see line()). */
interface Waiter {
  /** A run of this worker handed its slot on. */
  handOver(slot: HeldSlot): void;
  /** A slot went back to Redis instead (kept too long): the waiter asks Redis at once, first in line meanwhile. */
  slotReturned(): void;
  /** The worker is closing. */
  closed(): void;
}

interface ProjectSlots {
  held: Set<HeldSlot>;
  /** Runs of this worker waiting for a slot of the project, oldest first. */
  waiters: Waiter[];
}

/**
 * A run's place in the line for a slot of one project. It keeps its place across waits, so that
 * runs get slots in the order they asked, however often their caller looks up in between.
 */
export interface SlotLine {
  /** A slot within `ms`, or null when none came (the place in line is kept). One wait at a time. */
  next(ms: number): Promise<RunSlot | null>;
  /** Leaves the line. A slot handed to it meanwhile is returned: the caller uses it or gives it. */
  leave(): RunSlot | null;
  /**
   * Whether this run is asking Redis for a slot right now. A slot given back to Redis (kept too
   * long) is asked for again at once; until the answer comes, the worker holds none of the
   * project's slots, yet this run may be about to get one.
   */
  asking(): boolean;
}

type SlotScript = (...args: Array<string | number>) => Promise<unknown>;

const DEFAULT_LEASE_TTL_MS = 3_000;
const DEFAULT_HANDOFF_LIMIT_MS = 1_000;
const DEFAULT_LINGER_MS = 50;

export class ProjectRunSlots {
  private readonly acquireScript: SlotScript;
  private readonly workerId = randomUUID();
  private memberCount = 0;
  private readonly projects = new Map<string, ProjectSlots>();
  private readonly renewTimer: NodeJS.Timeout;
  private readonly leaseTtlMs: number;
  private readonly handoffLimitMs: number;
  private readonly lingerMs: number;

  constructor(private readonly options: ProjectRunSlotsOptions) {
    this.leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.handoffLimitMs = options.handoffLimitMs ?? DEFAULT_HANDOFF_LIMIT_MS;
    this.lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
    // Scripts by SHA (EVALSHA, loaded on first use): each call sends the keys and arguments, not the script.
    const redis = options.redis as Redis & Record<string, SlotScript | undefined>;
    if (!redis.flowpointAcquireRunSlot) redis.defineCommand("flowpointAcquireRunSlot", { numberOfKeys: 1, lua: ACQUIRE });
    this.acquireScript = redis.flowpointAcquireRunSlot!.bind(redis);
    this.renewTimer = setInterval(() => this.renewHeldSlots(), Math.max(50, Math.floor(this.leaseTtlMs / 3)));
    this.renewTimer.unref();
  }

  private slotsKey(projectId: string): string {
    return `${this.options.keyPrefix}slots:${projectId}`;
  }

  private projectSlots(projectId: string): ProjectSlots {
    let project = this.projects.get(projectId);
    if (!project) {
      project = { held: new Set(), waiters: [] };
      this.projects.set(projectId, project);
    }
    return project;
  }

  /**
   * A slot of the project for one run: one this worker holds and no run uses, else a new one from
   * Redis when the project is under its limit. Null when the project is at its limit.
   */
  async tryTake(projectId: string): Promise<RunSlot | null> {
    const project = this.projectSlots(projectId);
    for (const slot of project.held) {
      if (!slot.inUse && !slot.lost) return this.use(slot);
    }
    const now = Date.now();
    const member = `${this.workerId}:${++this.memberCount}`;
    const granted = await this.acquireScript(this.slotsKey(projectId), now, now + this.leaseTtlMs, member, this.options.limit, this.leaseTtlMs * 2);
    if (granted !== 1) return null;
    const slot: HeldSlot = { projectId, member, takenAt: now, inUse: false, lost: false, lingerTimer: null };
    project.held.add(slot);
    return this.use(slot);
  }

  private use(slot: HeldSlot): HeldSlot {
    if (slot.lingerTimer) clearTimeout(slot.lingerTimer);
    slot.lingerTimer = null;
    slot.inUse = true;
    return slot;
  }

  /**
   * A place at the end of the project's line. Runs of this worker hand their slots to the line's
   * first; while this worker holds fewer than the project's limit, the first few in line (as many as
   * could get one) also ask Redis every `recheckMs`, for a slot another worker freed. A worker that
   * holds them all asks Redis nothing while its runs wait: it would be refused.
   */
  line(projectId: string, recheckMs: number): SlotLine {
    let granted: HeldSlot | null = null;
    let done = false;
    let wake: ((slot: HeldSlot | null) => void) | null = null;
    let asking = false;
    const leaveLine = (): void => {
      const project = this.projects.get(projectId);
      if (!project) return;
      const index = project.waiters.indexOf(waiter);
      if (index >= 0) project.waiters.splice(index, 1);
      if (project.held.size === 0 && project.waiters.length === 0) this.projects.delete(projectId);
    };
    const finish = (): void => {
      done = true;
      clearInterval(recheck);
      leaveLine();
    };
    const deliver = (slot: HeldSlot): void => {
      // A run that has left the line, or holds a slot already, passes a slot handed to it on.
      if (done || granted) {
        this.give(slot);
        return;
      }
      leaveLine();
      if (!wake) {
        granted = slot;
        return;
      }
      finish();
      const resolve = wake;
      wake = null;
      resolve(slot);
    };
    const askRedis = (): void => {
      if (done || asking || granted) return;
      const project = this.projectSlots(projectId);
      let holding = 0;
      for (const slot of project.held) if (!slot.lost) holding += 1;
      const place = project.waiters.indexOf(waiter);
      if (holding >= this.options.limit || place >= this.options.limit - holding) return;
      asking = true;
      this.tryTake(projectId)
        .then((slot) => {
          // Cleared before the slot is handed on: the run it reaches is no longer asking.
          asking = false;
          // To the first in line, which need not be this run: the asks of the first few overlap, and
          // the one answered first may be a later one's.
          if (slot) this.give(slot);
        })
        .catch(() => {
          asking = false;
        });
    };
    const waiter: Waiter = {
      handOver: deliver,
      slotReturned: () => {
        if (done) return;
        this.projectSlots(projectId).waiters.unshift(waiter);
        askRedis();
      },
      closed: () => {
        finish();
        const resolve = wake;
        wake = null;
        resolve?.(null);
      },
    };
    this.projectSlots(projectId).waiters.push(waiter);
    const recheck = setInterval(askRedis, recheckMs);
    return {
      next: (ms) => {
        if (granted) {
          const slot = granted;
          granted = null;
          finish();
          return Promise.resolve(slot);
        }
        if (done) return Promise.resolve(null);
        return new Promise((resolve) => {
          const timer = setTimeout(() => {
            wake = null;
            resolve(null);
          }, ms);
          wake = (slot) => {
            clearTimeout(timer);
            resolve(slot);
          };
        });
      },
      leave: () => {
        finish();
        const slot = granted;
        granted = null;
        return slot;
      },
      asking: () => asking,
    };
  }

  /**
   * The run is over with its slot: it goes to the next run of the project waiting here, or is kept a
   * moment for the next one, or goes back to Redis (kept too long, lost, or not wanted).
   */
  give(runSlot: RunSlot): void {
    const project = this.projects.get(runSlot.projectId);
    const slot = runSlot as HeldSlot;
    if (!project || !project.held.has(slot) || !slot.inUse) return;
    slot.inUse = false;
    const waiter = project.waiters.shift();
    const keptTooLong = Date.now() - slot.takenAt >= this.handoffLimitMs;
    if (waiter && !keptTooLong && !slot.lost) {
      waiter.handOver(this.use(slot));
      return;
    }
    if (waiter || keptTooLong || slot.lost) {
      this.giveBack(project, slot);
      // The waiter looks for a slot again, now on an equal footing with other workers' runs.
      waiter?.slotReturned();
      return;
    }
    slot.lingerTimer = setTimeout(() => {
      slot.lingerTimer = null;
      if (!slot.inUse) this.giveBack(project, slot);
    }, this.lingerMs);
    slot.lingerTimer.unref();
  }

  private giveBack(project: ProjectSlots, slot: HeldSlot): void {
    if (slot.lingerTimer) clearTimeout(slot.lingerTimer);
    slot.lingerTimer = null;
    project.held.delete(slot);
    if (project.held.size === 0 && project.waiters.length === 0) this.projects.delete(slot.projectId);
    // A slot that could not be given back (Redis away) expires on its own.
    this.options.redis.zrem(this.slotsKey(slot.projectId), slot.member).catch(() => undefined);
  }

  /** Pushes every held slot's expiry forward; a slot Redis no longer has is marked lost. */
  private renewHeldSlots(): void {
    const expiry = Date.now() + this.leaseTtlMs;
    for (const [projectId, project] of this.projects) {
      if (project.held.size === 0) continue;
      this.options.redis.pexpire(this.slotsKey(projectId), this.leaseTtlMs * 2).catch(() => undefined);
      for (const slot of project.held) {
        this.options.redis
          .zadd(this.slotsKey(projectId), "XX", "CH", expiry, slot.member)
          .then((changed) => {
            if (changed === 0) slot.lost = true;
          })
          .catch(() => undefined);
      }
    }
  }

  /** How many slots of the project this worker holds (in use or kept for the next run). */
  heldCount(projectId: string): number {
    return this.projects.get(projectId)?.held.size ?? 0;
  }

  /** Stops renewing and gives every held slot back: the worker is closing. */
  async close(): Promise<void> {
    clearInterval(this.renewTimer);
    const removals: Array<Promise<unknown>> = [];
    for (const [projectId, project] of this.projects) {
      for (const slot of project.held) {
        if (slot.lingerTimer) clearTimeout(slot.lingerTimer);
        removals.push(this.options.redis.zrem(this.slotsKey(projectId), slot.member).catch(() => undefined));
      }
      for (const waiter of [...project.waiters]) waiter.closed();
    }
    this.projects.clear();
    await Promise.all(removals);
  }

  /** Stops renewing without giving anything back, as a worker that died would (tests). */
  abandon(): void {
    clearInterval(this.renewTimer);
    for (const project of this.projects.values()) {
      for (const slot of project.held) if (slot.lingerTimer) clearTimeout(slot.lingerTimer);
    }
    this.projects.clear();
  }
}
