/**
 * Concurrent writes to the same table share a statement: under load, concurrent requests' inserts
 * (records API writes, Create steps of automation runs) go to the database as one multi-row
 * statement, paying one round trip, socket write and commit instead of one each.
 *
 * A write goes out at once (after the current task's synchronous work, so the writes one callback
 * makes together share a statement) while fewer than `maxInFlight` statements of its table are
 * running; otherwise it waits for one of them to end and leaves with every write that gathered
 * meanwhile. So an idle table adds no wait to a write, and the busier the table, the larger its
 * batches: the batch size follows the load, as with a network's delayed acknowledgements.
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
  /** Statements of one key running at once before writes wait and gather (default 4). */
  maxInFlight?: number;
  /** Larger gatherings are split into statements of at most this many writes. */
  maxBatch?: number;
  /**
   * How long a write bound for an idle key waits for company: "task" (default) until the current
   * task's synchronous work is done; "event-loop-turn" until the callbacks of every socket event of
   * this turn have run (setImmediate), so that concurrent requests' writes share one round trip
   * where a round trip costs more than the few hundred microseconds of wait.
   */
  gather?: "task" | "event-loop-turn";
}

/**
 * How record inserts gather (the records store's, and the benchmark's reference, which writes as
 * the app does): one statement of a table in flight, the inserts made in one turn of the event
 * loop together. Four in flight sent most of an automation worker's Create steps alone (its five
 * runs of a project at once): on a 2-core AMD machine at 500–680 events/s, one in flight cut
 * PostgreSQL's CPU per event by a fifth to a quarter and held 680/s flat in 3 of 4 runs against
 * 1 of 3; the endpoints' create scenario lost nothing (bench/README.md, 2026-12-07, AMD, evening).
 */
export const RECORD_INSERT_BATCHING = { maxInFlight: 1, gather: "event-loop-turn" } as const satisfies Pick<WriteBatcherOptions<unknown>, "maxInFlight" | "gather">;

export interface WriteBatcher<Item> {
  /** Resolves once the item is stored; rejects with its own error. */
  add(key: string, item: Item): Promise<void>;
}

interface Queued<Item> {
  item: Item;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface KeyState<Item> {
  waiting: Array<Queued<Item>>;
  inFlight: number;
  flushScheduled: boolean;
}

const DEFAULT_MAX_IN_FLIGHT = 4;
const DEFAULT_MAX_BATCH = 200;

export function createWriteBatcher<Item>(options: WriteBatcherOptions<Item>): WriteBatcher<Item> {
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const schedule = options.gather === "event-loop-turn" ? (callback: () => void) => void setImmediate(callback) : queueMicrotask;
  const keys = new Map<string, KeyState<Item>>();

  async function runAlone(queued: Queued<Item>): Promise<void> {
    try {
      await options.runAlone(queued.item);
      queued.resolve();
    } catch (error) {
      queued.reject(error);
    }
  }

  async function runBatch(batch: Array<Queued<Item>>): Promise<void> {
    try {
      await options.runBatch(batch.map((queued) => queued.item));
    } catch (error) {
      if (options.failsEveryItem(error)) {
        for (const queued of batch) queued.reject(error);
      } else {
        await Promise.all(batch.map(runAlone));
      }
      return;
    }
    for (const queued of batch) queued.resolve();
  }

  /** Sends what waits, as long as the key has statements to spare. */
  function flush(key: string, state: KeyState<Item>): void {
    state.flushScheduled = false;
    while (state.waiting.length > 0 && state.inFlight < maxInFlight) {
      const batch = state.waiting.splice(0, maxBatch);
      state.inFlight += 1;
      void (batch.length === 1 ? runAlone(batch[0]!) : runBatch(batch)).finally(() => {
        state.inFlight -= 1;
        if (state.waiting.length > 0) flush(key, state);
        else if (state.inFlight === 0) keys.delete(key);
      });
    }
  }

  return {
    add(key, item) {
      return new Promise<void>((resolve, reject) => {
        let state = keys.get(key);
        if (!state) {
          state = { waiting: [], inFlight: 0, flushScheduled: false };
          keys.set(key, state);
        }
        state.waiting.push({ item, resolve, reject });
        // A full key sends its waiting writes when a statement ends; otherwise once the gathering
        // is over (options.gather), so that writes made together leave together.
        if (state.inFlight < maxInFlight && !state.flushScheduled) {
          state.flushScheduled = true;
          const scheduled = state;
          schedule(() => flush(key, scheduled));
        }
      });
    },
  };
}
