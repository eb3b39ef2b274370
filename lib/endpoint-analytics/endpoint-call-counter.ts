import { LATENCY_BUCKET_COUNT, latencyBucketIndex } from "./latency-histogram";

/** The counts kept of an endpoint's calls: per minute here, merged into points and totals when read. */
export interface CallCounts {
  calls: number;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
  /** 429 answers (also counted in status4xx). */
  rateLimited: number;
  cacheHits: number;
}

/** One endpoint's calls during one minute (`minute`: whole minutes since the epoch, UTC). */
export interface MinuteAggregate extends CallCounts {
  projectId: string;
  endpointId: string;
  minute: number;
  latencyBuckets: Uint32Array;
}

const MINUTE_MS = 60_000;

export function emptyMinuteAggregate(projectId: string, endpointId: string, minute: number): MinuteAggregate {
  return {
    projectId,
    endpointId,
    minute,
    calls: 0,
    status2xx: 0,
    status3xx: 0,
    status4xx: 0,
    status5xx: 0,
    rateLimited: 0,
    cacheHits: 0,
    latencyBuckets: new Uint32Array(LATENCY_BUCKET_COUNT),
  };
}

/** Adds `source`'s counts to `target` (same endpoint and minute). */
export function addMinuteAggregate(target: MinuteAggregate, source: MinuteAggregate): void {
  target.calls += source.calls;
  target.status2xx += source.status2xx;
  target.status3xx += source.status3xx;
  target.status4xx += source.status4xx;
  target.status5xx += source.status5xx;
  target.rateLimited += source.rateLimited;
  target.cacheHits += source.cacheHits;
  for (let i = 0; i < LATENCY_BUCKET_COUNT; i++) target.latencyBuckets[i]! += source.latencyBuckets[i]!;
}

/**
 * Counts calls in memory, per endpoint and minute, for the flusher to write
 * (flush-endpoint-stats.ts). `count` is on the invocation hot path: no I/O, and an allocation only
 * when an endpoint starts a new minute or after a flush took its aggregate.
 */
export class EndpointCallCounter {
  /** Each endpoint's aggregate of the latest minute it was called in. */
  private current = new Map<string, MinuteAggregate>();
  /** Aggregates of earlier minutes, and those a failed flush gave back. */
  private sealed: MinuteAggregate[] = [];

  /** At most this many aggregates wait for a flush; past it the oldest minutes are dropped (a long database outage). */
  constructor(private readonly maxWaiting = 50_000) {}

  /** Counts one answer: its status, whether the cache gave it, its duration (ms), when it was given (ms since the epoch). */
  count(projectId: string, endpointId: string, status: number, cacheHit: boolean, durationMs: number, now = Date.now()): void {
    const minute = Math.floor(now / MINUTE_MS);
    let aggregate = this.current.get(endpointId);
    if (aggregate === undefined || aggregate.minute !== minute) {
      if (aggregate !== undefined) this.seal(aggregate);
      aggregate = emptyMinuteAggregate(projectId, endpointId, minute);
      this.current.set(endpointId, aggregate);
    }
    aggregate.calls++;
    if (status >= 500) aggregate.status5xx++;
    else if (status >= 400) {
      aggregate.status4xx++;
      if (status === 429) aggregate.rateLimited++;
    } else if (status >= 300) aggregate.status3xx++;
    else aggregate.status2xx++;
    if (cacheHit) aggregate.cacheHits++;
    aggregate.latencyBuckets[latencyBucketIndex(durationMs)]!++;
  }

  /** Whether any counts wait for a flush. */
  hasCounts(): boolean {
    return this.current.size > 0 || this.sealed.length > 0;
  }

  /** Takes every aggregate counted so far; counting goes on into fresh ones. */
  take(): MinuteAggregate[] {
    const taken = this.sealed;
    for (const aggregate of this.current.values()) taken.push(aggregate);
    this.sealed = [];
    this.current = new Map();
    return taken;
  }

  /** Puts back aggregates a flush could not write, for the next one. */
  giveBack(aggregates: readonly MinuteAggregate[]): void {
    for (const aggregate of aggregates) this.seal(aggregate);
  }

  private seal(aggregate: MinuteAggregate): void {
    this.sealed.push(aggregate);
    if (this.sealed.length > this.maxWaiting) {
      // A tenth at a time, so that an outage does not sort the list on every new minute.
      this.sealed.sort((a, b) => a.minute - b.minute);
      this.sealed.splice(0, this.sealed.length - Math.floor(this.maxWaiting * 0.9));
    }
  }
}

/** Aggregates of the same endpoint and minute merged into one (a given-back aggregate beside a new one). */
export function mergeMinuteAggregates(aggregates: readonly MinuteAggregate[]): MinuteAggregate[] {
  const merged = new Map<string, MinuteAggregate>();
  for (const aggregate of aggregates) {
    const key = `${aggregate.endpointId} ${aggregate.minute}`;
    const existing = merged.get(key);
    if (existing) addMinuteAggregate(existing, aggregate);
    else merged.set(key, { ...aggregate, latencyBuckets: Uint32Array.from(aggregate.latencyBuckets) });
  }
  return [...merged.values()];
}

const COUNTER_KEY = Symbol.for("flowpoint.endpointAnalytics.counter");

/**
 * The process's counter. It lives on globalThis: `npm start` runs Next in the same process, and
 * Next's bundles hold their own copies of this module (as lib/http/after-response.ts explains).
 */
export function processEndpointCallCounter(): EndpointCallCounter {
  const holder = globalThis as Record<symbol, EndpointCallCounter | undefined>;
  return (holder[COUNTER_KEY] ??= new EndpointCallCounter());
}
