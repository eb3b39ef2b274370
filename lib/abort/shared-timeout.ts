/**
 * One timeout length for many concurrent operations, served by one timer. Every operation gets the
 * same length, so their deadlines come in the order they started: they wait in a line, and a single
 * timer is set for the first deadline not yet settled. Where thousands of operations a second each
 * need a timeout (queueing a record write's automation runs), this spares each one a Timeout object,
 * its insertion into and removal from Node's timer list, and the promises of a Promise.race.
 */
export interface SharedTimeout {
  /**
   * Settles as `work` does, or rejects with the timeout's error once the timeout passes first, after
   * calling `onTimeout`. `mapError` turns work's own failure into the rejection (default: as it is).
   */
  race<T>(work: Promise<T>, options?: RaceOptions): Promise<T>;
  /** Operations still waiting (tests read it to see that settled ones are let go). */
  readonly waiting: number;
}

export interface RaceOptions {
  onTimeout?: () => void;
  mapError?: (error: unknown) => unknown;
}

interface Waiting {
  deadline: number;
  settled: boolean;
  expire: () => void;
}

// Settled operations leave the line from its front; the array is cut down once this many have.
const COMPACT_AFTER = 1_024;

export function createSharedTimeout(ms: number, timeoutError: () => Error): SharedTimeout {
  let line: Array<Waiting | undefined> = [];
  let head = 0;
  let timer: NodeJS.Timeout | null = null;

  /** Drops settled operations from the front, so that what finished is not kept alive until its deadline. */
  function dropSettled(): void {
    while (head < line.length && line[head]!.settled) line[head++] = undefined;
    if (head === line.length) {
      line = [];
      head = 0;
    } else if (head >= COMPACT_AFTER) {
      line = line.slice(head);
      head = 0;
    }
  }

  function expireDue(): void {
    timer = null;
    const now = performance.now();
    while (head < line.length) {
      const waiting = line[head]!;
      if (!waiting.settled && waiting.deadline > now) break;
      line[head++] = undefined;
      if (!waiting.settled) {
        waiting.settled = true;
        waiting.expire();
      }
    }
    dropSettled();
    arm();
  }

  function arm(): void {
    if (timer || head >= line.length) return;
    // The timer does not hold the process open: the work raced against it does that if it must.
    timer = setTimeout(expireDue, Math.max(0, line[head]!.deadline - performance.now()));
    timer.unref();
  }

  return {
    race<T>(work: Promise<T>, options?: RaceOptions): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const waiting: Waiting = {
          deadline: performance.now() + ms,
          settled: false,
          expire: () => {
            options?.onTimeout?.();
            reject(timeoutError());
          },
        };
        line.push(waiting);
        arm();
        const settle = () => {
          waiting.settled = true;
          if (line[head] === waiting) dropSettled();
        };
        work.then(
          (value) => {
            if (waiting.settled) return;
            settle();
            resolve(value);
          },
          (error: unknown) => {
            if (waiting.settled) return;
            settle();
            reject(options?.mapError ? options.mapError(error) : error);
          },
        );
      });
    },
    get waiting() {
      let count = 0;
      for (let index = head; index < line.length; index++) if (!line[index]!.settled) count += 1;
      return count;
    },
  };
}
