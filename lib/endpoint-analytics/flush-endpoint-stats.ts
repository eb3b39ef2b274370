import { getPlatformDb } from "@/lib/platform-db/client";
import { log } from "@/lib/log";
import { processEndpointCallCounter, type EndpointCallCounter } from "./endpoint-call-counter";
import { pruneEndpointStats } from "./prune-endpoint-stats";
import { writeEndpointStats } from "./write-endpoint-stats";

const FLUSH_INTERVAL_MS = 10_000;
const PRUNE_INTERVAL_MS = 5 * 60_000;

interface FlusherState {
  timer: ReturnType<typeof setInterval> | null;
  /** The flush running now: the next one starts after it, so two never write the same counts. */
  chain: Promise<void>;
  lastPruneAt: number;
  failing: boolean;
}

const STATE_KEY = Symbol.for("flowpoint.endpointAnalytics.flusher");
const state: FlusherState = ((globalThis as Record<symbol, FlusherState | undefined>)[STATE_KEY] ??= { timer: null, chain: Promise.resolve(), lastPruneAt: 0, failing: false });

async function flushOnce(counter: EndpointCallCounter): Promise<void> {
  const wantsPrune = Date.now() - state.lastPruneAt >= PRUNE_INTERVAL_MS;
  if (!counter.hasCounts() && !wantsPrune) return;
  const taken = counter.take();
  let db;
  try {
    db = await getPlatformDb();
    await writeEndpointStats(db, taken);
    if (state.failing) log.info("endpoint stats written again after failures");
    state.failing = false;
  } catch (error) {
    // Kept for the next flush (bounded by the counter); logged once per outage, not every 10 s.
    counter.giveBack(taken);
    // The driver's error repeats the statement and its parameters (every row): its cause says what went wrong.
    if (!state.failing) log.warn("endpoint stats flush failed; counts kept for the next try", { error: (error as { cause?: unknown }).cause ?? error });
    state.failing = true;
    return;
  }
  if (!wantsPrune) return;
  state.lastPruneAt = Date.now();
  await pruneEndpointStats(db).catch((error: unknown) => log.warn("endpoint stats prune failed", { error }));
}

/**
 * Writes every call counted so far to the platform database (after a flush already running). The
 * timer calls it every 10 s, settleAfterResponseWork on shutdown; tests call it to read counts at once.
 */
export function flushEndpointStats(counter: EndpointCallCounter = processEndpointCallCounter()): Promise<void> {
  const next = state.chain.then(() => flushOnce(counter));
  state.chain = next;
  return next;
}

/** Starts the 10-second flush timer once per process (`onTick` runs first on each tick); it never keeps the process alive. */
export function startEndpointStatsFlusher(onTick?: () => void): void {
  if (state.timer) return;
  state.timer = setInterval(() => {
    onTick?.();
    void flushEndpointStats();
  }, FLUSH_INTERVAL_MS);
  state.timer.unref?.();
}
