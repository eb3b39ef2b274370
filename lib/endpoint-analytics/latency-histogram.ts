/**
 * A fixed log-scale latency histogram: bucket 0 holds answers under 0.25 ms, bucket i (1…54) those
 * in [0.25·2^((i−1)/3), 0.25·2^(i/3)) ms — three buckets per doubling, each ~26 % wide, up to
 * 65.5 s — and the last bucket anything slower (the run budget is 30 s). Fixed bounds let every
 * instance's and every minute's histograms be added bucket by bucket, in memory and in SQL, and
 * percentiles be estimated from the sum with an error under ±13 %.
 */
export const LATENCY_BUCKET_COUNT = 56;

const SMALLEST_BOUND_MS = 0.25;
const BUCKETS_PER_DOUBLING = 3;
const LAST_BUCKET = LATENCY_BUCKET_COUNT - 1;

/** The bucket a duration (milliseconds) falls in. */
export function latencyBucketIndex(durationMs: number): number {
  if (!(durationMs >= SMALLEST_BOUND_MS)) return 0;
  const index = 1 + Math.floor(Math.log2(durationMs / SMALLEST_BOUND_MS) * BUCKETS_PER_DOUBLING);
  return index > LAST_BUCKET ? LAST_BUCKET : index;
}

/** The lower bound of a bucket, in milliseconds. */
export function latencyBucketLowerBound(index: number): number {
  return index === 0 ? 0 : SMALLEST_BOUND_MS * 2 ** ((index - 1) / BUCKETS_PER_DOUBLING);
}

/** The upper bound of a bucket, in milliseconds (the last bucket's is open: its lower bound is answered). */
export function latencyBucketUpperBound(index: number): number {
  return index >= LAST_BUCKET ? latencyBucketLowerBound(LAST_BUCKET) : SMALLEST_BOUND_MS * 2 ** (index / BUCKETS_PER_DOUBLING);
}

/** Adds `source` into `target`, bucket by bucket (either may be shorter: missing buckets count 0). */
export function addLatencyBuckets(target: number[] | Uint32Array, source: ArrayLike<number>): void {
  const length = Math.min(target.length, source.length);
  for (let i = 0; i < length; i++) target[i] = (target[i] ?? 0) + (source[i] ?? 0);
}

/**
 * The estimated `quantile` (0…1) of the durations counted in `buckets`, in milliseconds; null when
 * nothing was counted. Inside a bucket the rank is placed geometrically between its bounds
 * (linearly in the first bucket, whose lower bound is 0), which matches the buckets' log scale.
 */
export function estimateLatencyPercentile(buckets: ArrayLike<number>, quantile: number): number | null {
  let total = 0;
  for (let i = 0; i < buckets.length; i++) total += buckets[i] ?? 0;
  if (total === 0) return null;
  const rank = Math.min(Math.max(quantile, 0), 1) * total;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    const count = buckets[i] ?? 0;
    if (count === 0) continue;
    if (seen + count >= rank) {
      const fraction = Math.min(Math.max((rank - seen) / count, 0), 1);
      if (i >= LAST_BUCKET) return latencyBucketLowerBound(LAST_BUCKET);
      const lower = latencyBucketLowerBound(i);
      const upper = latencyBucketUpperBound(i);
      return i === 0 ? upper * fraction : lower * (upper / lower) ** fraction;
    }
    seen += count;
  }
  return latencyBucketLowerBound(LAST_BUCKET);
}
