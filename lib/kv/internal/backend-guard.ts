import type { KvKind, KvLogger } from "@/lib/kv/kv";

export type KvArea = "rate limiter" | "cache" | "pub/sub" | "connection";

/** Thrown when a call is not even attempted because the connection is known to be down. */
export class KvUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KvUnavailableError";
  }
}

export class KvTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = "KvTimeoutError";
  }
}

/**
 * Logs at most one warning per area per interval, and says how many were held back. Uses the
 * monotonic clock so tests that move Date do not change it.
 */
export class ThrottledWarnings {
  private readonly lastByArea = new Map<KvArea, { at: number; suppressed: number }>();

  constructor(
    private readonly kind: KvKind,
    private readonly logger: KvLogger,
    private readonly intervalMs: number,
  ) {}

  warn(area: KvArea, message: string): void {
    const now = performance.now();
    const last = this.lastByArea.get(area);
    if (last && now - last.at < this.intervalMs) {
      last.suppressed += 1;
      return;
    }
    const held = last && last.suppressed > 0 ? ` (${last.suppressed} similar warnings held back)` : "";
    this.lastByArea.set(area, { at: now, suppressed: 0 });
    this.logger.warn(`[kv:${this.kind}] ${area}: ${message}${held}`);
  }
}

/**
 * Races a promise against a timer; a late rejection of the promise is ignored, never unhandled.
 *
 * The timer's rejection waits one more turn of the event loop (setImmediate runs after the I/O
 * poll phase). After the process itself stalls for longer than the timeout (a long garbage
 * collection, a busy CPU), timers run before the sockets are read, so without that turn a reply
 * already sitting in the socket would lose to the timer and a healthy backend would be put on
 * cool-down, failing rate limits open for no reason.
 */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  // One promise and one reaction per call, not a race of three: this wraps every kv call.
  return new Promise<T>((resolve, reject) => {
    let immediate: ReturnType<typeof setImmediate> | undefined;
    const timer = setTimeout(() => {
      immediate = setImmediate(() => reject(new KvTimeoutError(timeoutMs)));
    }, timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    };
    promise.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

/**
 * A Redis error reply caused by the command itself (wrong type, not an integer): the backend is
 * fine, so it must not put the backend on cool-down.
 */
function isCommandError(error: unknown): boolean {
  return error instanceof Error && /^(?:Command failed: )?(?:ERR|WRONGTYPE) /.test(error.message);
}

/** A log line that names the failure without echoing commands, values or credentials. */
export function describeKvError(error: unknown): string {
  if (!(error instanceof Error)) return "unknown error";
  const message = error.message.split(", command was:")[0] ?? "";
  return message.replace(/\/\/[^@/\s]*@/g, "//***@").slice(0, 200);
}

interface BackendGuardOptions {
  timeoutMs: number;
  cooldownMs: number;
  warnings: ThrottledWarnings;
}

/**
 * Bounds every backend call by a timeout and turns any failure into the caller's documented
 * fallback. After a timeout or connection failure the backend is skipped for `cooldownMs`, so a
 * dead Redis costs nothing per request; the first call after the cool-down tries again.
 */
export class BackendGuard {
  readonly timeoutMs: number;
  private readonly cooldownMs: number;
  readonly warnings: ThrottledWarnings;
  private skipUntil = 0;

  constructor(options: BackendGuardOptions) {
    this.timeoutMs = options.timeoutMs;
    this.cooldownMs = options.cooldownMs;
    this.warnings = options.warnings;
  }

  /** True while the backend is on cool-down after a failure. */
  get coolingDown(): boolean {
    return performance.now() < this.skipUntil;
  }

  markFailed(): void {
    this.skipUntil = performance.now() + this.cooldownMs;
  }

  async run<T>(area: KvArea, operation: () => Promise<T>, fallback: () => T, consequence: string): Promise<T> {
    if (this.coolingDown) {
      this.warnings.warn(area, `backend unavailable; ${consequence}`);
      return fallback();
    }
    try {
      return await withTimeout(operation(), this.timeoutMs);
    } catch (error) {
      if (!isCommandError(error)) this.markFailed();
      this.warnings.warn(area, `${describeKvError(error)}; ${consequence}`);
      return fallback();
    }
  }
}
