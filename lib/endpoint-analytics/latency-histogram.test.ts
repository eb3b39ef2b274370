import { describe, expect, it } from "vitest";
import { addLatencyBuckets, estimateLatencyPercentile, LATENCY_BUCKET_COUNT, latencyBucketIndex, latencyBucketLowerBound, latencyBucketUpperBound } from "./latency-histogram";

describe("latency buckets", () => {
  it("place every duration between its bucket's bounds, from sub-0.25 ms to the open last bucket", () => {
    for (const ms of [0.01, 0.25, 0.3, 1, 2.5, 10, 99.9, 1_000, 29_999, 65_000]) {
      const index = latencyBucketIndex(ms);
      expect(ms, String(index)).toBeGreaterThanOrEqual(latencyBucketLowerBound(index));
      expect(ms, String(index)).toBeLessThan(latencyBucketUpperBound(index));
    }
    expect(latencyBucketIndex(0)).toBe(0);
    expect(latencyBucketIndex(-3)).toBe(0);
    expect(latencyBucketIndex(Number.NaN)).toBe(0);
    expect(latencyBucketIndex(10 * 60_000)).toBe(LATENCY_BUCKET_COUNT - 1);
  });

  it("add bucket by bucket", () => {
    const target = new Array<number>(LATENCY_BUCKET_COUNT).fill(1);
    addLatencyBuckets(
      target,
      Uint32Array.from({ length: LATENCY_BUCKET_COUNT }, (_, i) => i),
    );
    expect(target[0]).toBe(1);
    expect(target[10]).toBe(11);
  });
});

describe("estimateLatencyPercentile", () => {
  it("answers null without calls", () => {
    expect(estimateLatencyPercentile(new Array<number>(LATENCY_BUCKET_COUNT).fill(0), 0.5)).toBeNull();
  });

  it("estimates p50/p95/p99 of a known distribution within 13 %", () => {
    // 1 … 1000 ms, evenly spread: p50 ≈ 500, p95 ≈ 950, p99 ≈ 990.
    const buckets = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
    for (let ms = 1; ms <= 1_000; ms++) buckets[latencyBucketIndex(ms)]!++;
    for (const [quantile, exact] of [
      [0.5, 500],
      [0.95, 950],
      [0.99, 990],
    ] as const) {
      const estimate = estimateLatencyPercentile(buckets, quantile)!;
      expect(Math.abs(estimate - exact) / exact, `p${quantile * 100}: ${estimate}`).toBeLessThan(0.13);
    }
  });

  it("keeps a slow tail visible: 1 % of 2 s calls among 5 ms ones moves p99, not p50", () => {
    const buckets = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
    buckets[latencyBucketIndex(5)] = 980;
    buckets[latencyBucketIndex(2_000)] = 20;
    expect(estimateLatencyPercentile(buckets, 0.5)).toBeLessThan(6.5);
    expect(estimateLatencyPercentile(buckets, 0.99)).toBeGreaterThan(1_500);
  });
});
