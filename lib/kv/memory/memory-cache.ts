import { BoundedMap } from "@/lib/kv/internal/bounded-map";
import { ttlMsOf } from "@/lib/kv/internal/kv-arguments";
import type { ThrottledWarnings } from "@/lib/kv/internal/backend-guard";
import type { KvCache, KvPing } from "@/lib/kv/kv";

interface Entry {
  value: string;
  /** Epoch ms; Infinity for keys without expiry (incr). */
  expiresAt: number;
  bytes: number;
}

interface MemoryCacheOptions {
  maxEntries: number;
  maxBytes: number;
  warnings: ThrottledWarnings;
}

/**
 * The embedded cache: one process only. Entries expire lazily on read; the least recently used go
 * first when either the entry cap or the approximate byte cap is reached.
 */
export class MemoryCache implements KvCache {
  private readonly entries: BoundedMap<string, Entry>;
  private readonly maxBytes: number;
  private readonly warnings: ThrottledWarnings;
  private bytes = 0;

  constructor(options: MemoryCacheOptions) {
    this.entries = new BoundedMap(options.maxEntries);
    this.maxBytes = options.maxBytes;
    this.warnings = options.warnings;
  }

  /** Entries currently held (expired ones included until they are read or evicted). */
  get size(): number {
    return this.entries.size;
  }

  get approximateBytes(): number {
    return this.bytes;
  }

  async get(key: string): Promise<string | null> {
    return this.read(key);
  }

  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    return keys.map((key) => this.read(key));
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.write(key, value, Date.now() + ttlMsOf(ttlSeconds));
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const expiresAt = Date.now() + ttlMsOf(ttlSeconds);
    if (this.read(key) !== null) return false;
    this.write(key, value, expiresAt);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.remove(key);
  }

  async incr(key: string): Promise<number | null> {
    const current = this.read(key);
    const entry = this.entries.get(key);
    if (current !== null && !/^-?\d+$/.test(current)) {
      this.warnings.warn("cache", "incr on a value that is not an integer; answered null");
      return null;
    }
    const next = (current === null ? 0 : Number(current)) + 1;
    this.write(key, String(next), entry?.expiresAt ?? Number.POSITIVE_INFINITY);
    return next;
  }

  async ping(): Promise<KvPing> {
    return { ok: true, latencyMs: 0 };
  }

  private read(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.remove(key);
      return null;
    }
    this.entries.touch(key);
    return entry.value;
  }

  private write(key: string, value: string, expiresAt: number): void {
    this.remove(key);
    const bytes = (key.length + value.length) * 2;
    if (bytes > this.maxBytes) return;
    // Evict here rather than inside BoundedMap so the byte count stays right.
    while (this.entries.size > 0 && (this.bytes + bytes > this.maxBytes || this.entries.size >= this.entries.maxEntries)) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
    this.entries.set(key, { value, expiresAt, bytes });
    this.bytes += bytes;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
