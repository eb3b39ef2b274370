/**
 * The key-value tier: rate limits, the response cache, version keys, token denylists and a small
 * pub/sub for cross-instance invalidation. One interface per part; `createKv` / `getKv` pick the
 * backend (memory, Redis over TCP, Upstash REST) and nothing outside `lib/kv/` branches on it.
 *
 * Outage policy (every backend that can be down: redis, upstash). Each call is bounded by a short
 * timeout (default 500 ms) and never hangs or throws for an unreachable backend:
 * - rate limiter: fails OPEN (`success: true`, `degraded: true`) unless the rule says
 *   `whenUnavailable: "deny"`; an outage of the cache tier must not take every endpoint down.
 * - cache: reads answer null (cache skipped) or the caller's `whenUnavailable`, writes are
 *   dropped, `setIfAbsent` answers true (the caller proceeds as if it held the lock), `incr`
 *   answers null.
 * - pub/sub: publishes are dropped; subscriptions are re-established when the backend returns.
 * A warning is logged, at most one per area (rate limiter, cache, pub/sub, connection) per interval.
 * After a timeout or connection failure the backend is skipped for a short cool-down (1 s) so a
 * dead Redis costs nothing per request; then calls are tried again.
 */

export type KvKind = "memory" | "redis" | "upstash";

export interface RateLimitRule {
  /** Requests allowed per window (a positive integer). */
  limit: number;
  /** Window length in seconds (may be fractional, at least 1 ms). */
  windowSeconds: number;
  /**
   * What to answer when the backend is unreachable or slow: "allow" (default, fail open) or
   * "deny" (fail closed, for callers that prefer refusing to counting nothing).
   */
  whenUnavailable?: "allow" | "deny";
  /**
   * For busy limits (hundreds a window, called by scripts at full speed): while a caller is well
   * below the limit, a call is admitted from this instance's recent count and counted in the store
   * in a batch a few milliseconds later, instead of one round trip per call. One instance stays
   * exact; across instances the limit may be passed by at most BATCHED_COUNT_MAX_UNSENT calls per
   * instance (a burst on one caller faster than the batches). Backends that count in-process
   * (memory) or over HTTP (Upstash) count every call at once, as without it.
   */
  batchCounts?: boolean;
}

export interface RateLimitResult {
  success: boolean;
  /** The limit of the rule. */
  limit: number;
  /** Requests left in the sliding window after this one (0 when refused). */
  remaining: number;
  /** Epoch milliseconds when the current fixed bucket ends; a refused caller may pass again by then. */
  resetAt: number;
  /** 0 when allowed; otherwise whole seconds until resetAt, at least 1 (for Retry-After). */
  retryAfterSeconds: number;
  /** Set when the backend could not be asked and the answer follows `whenUnavailable`. */
  degraded?: true;
}

/**
 * Sliding-window rate limiter (two fixed buckets, the previous one weighted by how much of it still
 * overlaps the window — the @upstash/ratelimit `slidingWindow` algorithm). Counts are shared by every
 * instance on the same Redis/Upstash and key prefix; memory counts are per process.
 */
export interface RateLimiter {
  /** Counts one request for `key` under `rule` and says whether it may pass. One round trip. */
  limit(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
}

export interface CacheReadOptions {
  /** What a read answers when the backend is unreachable or slow (default null). */
  whenUnavailable?: string | null;
}

/**
 * String cache with expiry. Keys are namespaced by the kv key prefix. Never throws for an
 * unreachable backend (see the outage policy above); programming errors (a bad ttl) throw AppError.
 */
export interface KvCache {
  /**
   * The value, or null when absent or expired. When the backend is unavailable: `whenUnavailable`
   * (default null, as for an absent key), for callers that must tell the two apart.
   */
  get(key: string, options?: CacheReadOptions): Promise<string | null>;
  /** Values in the order of `keys` (null for each absent one). One round trip. */
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  /** Stores `value` for `ttlSeconds` (> 0, fractional allowed). Dropped when unavailable. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /**
   * Stores `value` only when `key` is absent; true when this call stored it (a cross-instance lock
   * or single flight). Answers true when the backend is unavailable: the caller does the work
   * itself rather than waiting on a lock nobody can hold. Not for one-time-use guarantees.
   */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Adds 1 to an integer value (absent counts as 0) and answers the new value; the key keeps no
   * expiry (version keys). Null when the backend is unavailable or the value is not an integer.
   */
  incr(key: string): Promise<number | null>;
  ping(): Promise<KvPing>;
}

/**
 * Fire-and-forget messages between instances, for invalidating in-process caches. A publisher
 * receives its own messages too. Not available on Upstash REST (no subscribe over REST here):
 * Upstash deployments rely on version keys (`cache.incr`) instead.
 */
export interface KvPubSub {
  /** Delivers `message` to every subscriber of `channel` on every instance; dropped when unavailable. */
  publish(channel: string, message: string): Promise<void>;
  /** Calls `handler` for each message; answers a function that removes this handler. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Since when (ms since the epoch) `channel`'s subscription has been confirmed on a connection that
   * has not broken since, so no message published after that has been missed; null while it is not
   * (not yet subscribed, reconnecting). Only where messages travel between instances (Redis).
   */
  listeningSince?(channel: string): number | null;
}

export interface KvPing {
  ok: boolean;
  latencyMs: number;
}

export interface Kv {
  readonly kind: KvKind;
  readonly keyPrefix: string;
  readonly rateLimiter: RateLimiter;
  readonly cache: KvCache;
  /** Undefined on Upstash (see KvPubSub). */
  readonly pubsub?: KvPubSub;
  ping(): Promise<KvPing>;
  /** Closes connections and subscriptions; the instance is unusable afterwards. */
  close(): Promise<void>;
}

export interface KvLogger {
  warn(message: string): void;
}

export interface KvCommonOptions {
  /** Prepended to every key and channel; default "fp:". */
  keyPrefix?: string;
  /** Upper bound for one call in milliseconds; default 500. */
  timeoutMs?: number;
  /** How long a failed backend is skipped before it is tried again; default 1000 ms. */
  cooldownMs?: number;
  /** At most one warning per area per this many milliseconds; default 30 000. */
  warningIntervalMs?: number;
  /** Where warnings go; default console. */
  logger?: KvLogger;
}

export interface MemoryKvOptions extends KvCommonOptions {
  kind: "memory";
  /** Cache entries kept at most (least recently used go first); default 10 000. */
  maxCacheEntries?: number;
  /** Approximate cache size in bytes kept at most (UTF-16 length × 2); default 64 MiB. */
  maxCacheBytes?: number;
  /** Rate-limit counters kept at most (least recently used go first); default 100 000. */
  maxRateLimitKeys?: number;
}

export interface RedisKvOptions extends KvCommonOptions {
  kind: "redis";
  /** redis:// or rediss:// URL. */
  url: string;
}

export interface UpstashKvOptions extends KvCommonOptions {
  kind: "upstash";
  /** The REST URL (https://…, or http://127.0.0.1:… for the test bridge). */
  url: string;
  token: string;
}

export type CreateKvOptions = MemoryKvOptions | RedisKvOptions | UpstashKvOptions;

export const DEFAULT_KEY_PREFIX = "fp:";
export const DEFAULT_TIMEOUT_MS = 500;
export const DEFAULT_COOLDOWN_MS = 1000;
export const DEFAULT_WARNING_INTERVAL_MS = 30_000;
