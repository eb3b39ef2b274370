import { withTimeout, type BackendGuard } from "@/lib/kv/internal/backend-guard";
import { ttlMsOf } from "@/lib/kv/internal/kv-arguments";
import type { CacheReadOptions, KvCache, KvPing } from "@/lib/kv/kv";
import type { RedisCommand } from "@/lib/kv/redis/lua-script-rewriter";

/** Sends one raw command and answers the raw reply (strings stay strings: no JSON parsing). */
export type SendRedisCommand = (command: RedisCommand) => Promise<unknown>;

interface RedisProtocolCacheOptions {
  send: SendRedisCommand;
  keyPrefix: string;
  guard: BackendGuard;
}

function stringOrNull(reply: unknown): string | null {
  if (reply === null || reply === undefined) return null;
  return typeof reply === "string" ? reply : String(reply);
}

/**
 * The cache over Redis commands, shared by Redis (ioredis) and Upstash (REST): every method is one
 * command, bounded by the guard's timeout, with the outage fallbacks documented in kv.ts. Keys are
 * `<prefix>c:<key>`.
 */
export class RedisProtocolCache implements KvCache {
  private readonly send: SendRedisCommand;
  private readonly prefix: string;
  private readonly guard: BackendGuard;

  constructor(options: RedisProtocolCacheOptions) {
    this.send = options.send;
    this.prefix = `${options.keyPrefix}c:`;
    this.guard = options.guard;
  }

  get(key: string, options?: CacheReadOptions): Promise<string | null> {
    return this.guard.run(
      "cache",
      async () => stringOrNull(await this.send(["GET", this.prefix + key])),
      () => options?.whenUnavailable ?? null,
      "read skipped",
    );
  }

  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return this.guard.run(
      "cache",
      async () => {
        const replies = await this.send(["MGET", ...keys.map((key) => this.prefix + key)]);
        if (!Array.isArray(replies)) throw new TypeError("MGET answered something other than an array");
        return keys.map((_, index) => stringOrNull(replies[index]));
      },
      () => keys.map(() => null),
      "reads skipped",
    );
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const ttlMs = ttlMsOf(ttlSeconds);
    await this.guard.run(
      "cache",
      async () => void (await this.send(["SET", this.prefix + key, value, "PX", ttlMs])),
      () => undefined,
      "write dropped",
    );
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const ttlMs = ttlMsOf(ttlSeconds);
    return this.guard.run(
      "cache",
      async () => (await this.send(["SET", this.prefix + key, value, "PX", ttlMs, "NX"])) === "OK",
      () => true,
      "setIfAbsent answered true (caller proceeds without the lock)",
    );
  }

  async delete(key: string): Promise<void> {
    await this.guard.run(
      "cache",
      async () => void (await this.send(["DEL", this.prefix + key])),
      () => undefined,
      "delete dropped",
    );
  }

  incr(key: string): Promise<number | null> {
    return this.guard.run(
      "cache",
      async () => {
        const reply = Number(await this.send(["INCR", this.prefix + key]));
        if (!Number.isSafeInteger(reply)) throw new TypeError("INCR answered something other than an integer");
        return reply;
      },
      () => null,
      "incr answered null",
    );
  }

  /** Asks the backend even while it is on cool-down: this is the health check. */
  async ping(): Promise<KvPing> {
    const started = performance.now();
    try {
      await withTimeout(this.send(["PING"]), this.guard.timeoutMs);
      return { ok: true, latencyMs: Math.round(performance.now() - started) };
    } catch {
      return { ok: false, latencyMs: Math.round(performance.now() - started) };
    }
  }
}
