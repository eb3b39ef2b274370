/**
 * Writes issued in the same turn of the event loop, to the same table, go to the database as one
 * statement: under load, concurrent requests' inserts (records API writes, Create steps of
 * automation runs) share a round trip, a socket write and a commit instead of paying one each. A
 * write alone in its turn runs alone, as it would without batching, one event-loop turn later.
 *
 * A batch statement is atomic: when it fails, nothing of it was stored. Unless the failure would
 * strike every write the same way (the database is down or too slow), each write is then run alone,
 * so that every caller gets its own answer (its own unique violation, say) as without batching.
 */
export interface WriteBatcherOptions<Item> {
  runAlone: (item: Item) => Promise<void>;
  /** Runs two or more items (of one key) as one statement. */
  runBatch: (items: readonly Item[]) => Promise<void>;
  /** Whether a failed batch's error is every item's answer (rather than a reason to run them alone). */
  failsEveryItem: (error: unknown) => boolean;
  /** Larger gatherings are split into statements of at most this many writes. */
  maxBatch?: number;
}

export interface WriteBatcher<Item> {
  /** Resolves once the item is stored; rejects with its own error. */
  add(key: string, item: Item): Promise<void>;
}

interface Queued<Item> {
  item: Item;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const DEFAULT_MAX_BATCH = 200;

export function createWriteBatcher<Item>(options: WriteBatcherOptions<Item>): WriteBatcher<Item> {
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const gathering = new Map<string, Array<Queued<Item>>>();

  function runAlone(queued: Queued<Item>): void {
    options.runAlone(queued.item).then(queued.resolve, queued.reject);
  }

  async function runBatch(batch: Array<Queued<Item>>): Promise<void> {
    try {
      await options.runBatch(batch.map((queued) => queued.item));
    } catch (error) {
      if (options.failsEveryItem(error)) {
        for (const queued of batch) queued.reject(error);
      } else {
        for (const queued of batch) runAlone(queued);
      }
      return;
    }
    for (const queued of batch) queued.resolve();
  }

  function flush(key: string): void {
    const queued = gathering.get(key) ?? [];
    gathering.delete(key);
    for (let start = 0; start < queued.length; start += maxBatch) {
      const batch = queued.slice(start, start + maxBatch);
      if (batch.length === 1) runAlone(batch[0]!);
      else void runBatch(batch);
    }
  }

  return {
    add(key, item) {
      return new Promise<void>((resolve, reject) => {
        let queued = gathering.get(key);
        if (!queued) {
          queued = [];
          gathering.set(key, queued);
          // After the current poll phase: requests read in the same turn have all queued their writes.
          setImmediate(flush, key);
        }
        queued.push({ item, resolve, reject });
      });
    },
  };
}
