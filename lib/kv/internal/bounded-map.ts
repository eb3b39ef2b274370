/**
 * A Map that keeps at most `maxEntries` entries, dropping the oldest inserted first. Callers that
 * want least-recently-used order re-insert an entry when they use it (`touch`).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly maxEntries: number;

  constructor(maxEntries: number) {
    super();
    this.maxEntries = Math.max(1, Math.floor(maxEntries));
  }

  override set(key: K, value: V): this {
    if (!super.has(key)) {
      while (this.size >= this.maxEntries) {
        const oldest = this.keys().next();
        if (oldest.done) break;
        this.delete(oldest.value);
      }
    }
    return super.set(key, value);
  }

  /** Moves an entry to the young end, so it is dropped last. */
  touch(key: K): void {
    if (!super.has(key)) return;
    const value = super.get(key) as V;
    super.delete(key);
    super.set(key, value);
  }
}
