import { describe, expect, it } from "vitest";
import { EndpointCallCounter, mergeMinuteAggregates } from "./endpoint-call-counter";
import { estimateLatencyPercentile, latencyBucketIndex } from "./latency-histogram";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
/** count()'s arguments before the time: project, endpoint, status, cache hit, duration. */
const call = (status: number, extra: { cacheHit?: boolean; durationMs?: number; endpointId?: string } = {}) =>
  ["prj_a", extra.endpointId ?? "ep_a", status, extra.cacheHit ?? false, extra.durationMs ?? 3] as const;

describe("EndpointCallCounter", () => {
  it("counts calls per endpoint and minute by status class, 429s, cache hits and latency", () => {
    const counter = new EndpointCallCounter();
    counter.count(...call(200, { cacheHit: true, durationMs: 0.4 }), T0);
    counter.count(...call(201), T0 + 1_000);
    counter.count(...call(302), T0 + 2_000);
    counter.count(...call(404), T0 + 3_000);
    counter.count(...call(429), T0 + 4_000);
    counter.count(...call(500, { durationMs: 1_200 }), T0 + 5_000);
    counter.count(...call(200), T0 + MINUTE);
    counter.count(...call(200, { endpointId: "ep_b" }), T0 + MINUTE);
    const taken = counter.take().sort((a, b) => a.minute - b.minute || a.endpointId.localeCompare(b.endpointId));
    expect(taken.map((a) => [a.endpointId, a.minute - T0 / MINUTE, a.calls])).toEqual([
      ["ep_a", 0, 6],
      ["ep_a", 1, 1],
      ["ep_b", 1, 1],
    ]);
    expect(taken[0]).toMatchObject({ status2xx: 2, status3xx: 1, status4xx: 2, status5xx: 1, rateLimited: 1, cacheHits: 1 });
    expect(taken[0]!.latencyBuckets[latencyBucketIndex(1_200)]).toBe(1);
    expect(taken[0]!.latencyBuckets.reduce((sum, n) => sum + n, 0)).toBe(6);
    expect(estimateLatencyPercentile(taken[0]!.latencyBuckets, 1)).toBeGreaterThan(1_000);
    expect(counter.hasCounts()).toBe(false);
  });

  it("merges what a failed flush gave back with new counts of the same minute", () => {
    const counter = new EndpointCallCounter();
    counter.count(...call(200), T0);
    const failed = counter.take();
    counter.count(...call(500), T0 + 10_000);
    counter.giveBack(failed);
    const merged = mergeMinuteAggregates(counter.take());
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ calls: 2, status2xx: 1, status5xx: 1 });
  });

  it("keeps at most its bound of waiting aggregates, dropping the oldest minutes", () => {
    const counter = new EndpointCallCounter(100);
    for (let minute = 0; minute < 150; minute++) counter.count(...call(200), T0 + minute * MINUTE);
    const taken = counter.take();
    expect(taken.length).toBeLessThanOrEqual(101);
    expect(Math.max(...taken.map((a) => a.minute))).toBe(T0 / MINUTE + 149);
    expect(Math.min(...taken.map((a) => a.minute))).toBeGreaterThan(T0 / MINUTE + 40);
  });
});
