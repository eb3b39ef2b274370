import { and, eq, gte, lt } from "drizzle-orm";
import { z } from "zod";
import { getPlatformDb } from "@/lib/platform-db/client";
import { endpointStatsHour, endpointStatsMinute } from "@/lib/platform-db/schema";
import { addLatencyBuckets, estimateLatencyPercentile, LATENCY_BUCKET_COUNT } from "./latency-histogram";
import type { CallCounts } from "./endpoint-call-counter";

export const ANALYTICS_RANGES = ["1h", "24h", "7d"] as const;
export const analyticsRangeSchema = z.enum(ANALYTICS_RANGES);
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

/** Each range's points: the last hour per minute, the last day per 15 minutes, the last week per hour. */
const RANGE_SHAPES: Record<AnalyticsRange, { points: number; stepMinutes: number; source: "minute" | "hour" }> = {
  "1h": { points: 60, stepMinutes: 1, source: "minute" },
  "24h": { points: 96, stepMinutes: 15, source: "minute" },
  "7d": { points: 168, stepMinutes: 60, source: "hour" },
};

const MINUTE_MS = 60_000;

export interface AnalyticsCounts extends CallCounts {
  /** Estimated from the merged latency histogram, in milliseconds; null without calls. */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

export interface AnalyticsPoint extends AnalyticsCounts {
  /** The start of the point's interval (ISO 8601, UTC). */
  at: string;
}

export interface EndpointAnalytics {
  range: AnalyticsRange;
  stepMinutes: number;
  from: string;
  to: string;
  totals: AnalyticsCounts & { cacheHitRatio: number | null };
  points: AnalyticsPoint[];
}

interface Accumulator extends CallCounts {
  latencyBuckets: number[];
}

function emptyAccumulator(): Accumulator {
  return { calls: 0, status2xx: 0, status3xx: 0, status4xx: 0, status5xx: 0, rateLimited: 0, cacheHits: 0, latencyBuckets: new Array<number>(LATENCY_BUCKET_COUNT).fill(0) };
}

function accumulate(target: Accumulator, row: Omit<Accumulator, "latencyBuckets"> & { latencyBuckets: number[] }): void {
  target.calls += row.calls;
  target.status2xx += row.status2xx;
  target.status3xx += row.status3xx;
  target.status4xx += row.status4xx;
  target.status5xx += row.status5xx;
  target.rateLimited += row.rateLimited;
  target.cacheHits += row.cacheHits;
  addLatencyBuckets(target.latencyBuckets, row.latencyBuckets);
}

function toCounts({ latencyBuckets, ...counts }: Accumulator): AnalyticsCounts {
  return {
    ...counts,
    p50Ms: estimateLatencyPercentile(latencyBuckets, 0.5),
    p95Ms: estimateLatencyPercentile(latencyBuckets, 0.95),
    p99Ms: estimateLatencyPercentile(latencyBuckets, 0.99),
  };
}

/**
 * One endpoint's calls over the last hour, day or week: a time series (the current, partial
 * interval last) and totals, with percentiles estimated from the merged latency histograms. All
 * instances' counts, as flushed (up to ~10 s behind).
 */
export async function getEndpointAnalytics(options: { projectId: string; endpointId: string; range: AnalyticsRange; now?: Date }): Promise<EndpointAnalytics> {
  const shape = RANGE_SHAPES[options.range];
  const stepMs = shape.stepMinutes * MINUTE_MS;
  const now = (options.now ?? new Date()).getTime();
  const to = Math.floor(now / stepMs) * stepMs + stepMs;
  const from = to - shape.points * stepMs;
  const db = await getPlatformDb();
  const table = shape.source === "minute" ? endpointStatsMinute : endpointStatsHour;
  const atColumn = shape.source === "minute" ? endpointStatsMinute.minute : endpointStatsHour.hour;
  const rows = await db
    .select({
      at: atColumn,
      calls: table.calls,
      status2xx: table.status2xx,
      status3xx: table.status3xx,
      status4xx: table.status4xx,
      status5xx: table.status5xx,
      rateLimited: table.rateLimited,
      cacheHits: table.cacheHits,
      latencyBuckets: table.latencyBuckets,
    })
    .from(table)
    .where(and(eq(table.endpointId, options.endpointId), eq(table.projectId, options.projectId), gte(atColumn, new Date(from)), lt(atColumn, new Date(to))));

  const buckets = Array.from({ length: shape.points }, emptyAccumulator);
  const total = emptyAccumulator();
  for (const { at, ...row } of rows) {
    const index = Math.floor((at.getTime() - from) / stepMs);
    const bucket = buckets[index];
    if (!bucket) continue;
    accumulate(bucket, row);
    accumulate(total, row);
  }
  const totals = toCounts(total);
  return {
    range: options.range,
    stepMinutes: shape.stepMinutes,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    totals: { ...totals, cacheHitRatio: totals.calls === 0 ? null : totals.cacheHits / totals.calls },
    points: buckets.map((bucket, index) => ({ at: new Date(from + index * stepMs).toISOString(), ...toCounts(bucket) })),
  };
}
