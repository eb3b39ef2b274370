import { after } from "next/server";
import { log } from "@/lib/log";

/**
 * Work that runs after the response: execution logs, webhook deliveries, mails whose timing must
 * not show in the answer. Every task is tracked in process until it settles, so a graceful shutdown
 * (server/start.ts) and tests can wait for it; a failure is logged, never thrown. Inside a Next
 * request scope the task is also handed to after(), which keeps serverless functions alive for it.
 *
 * The set lives on globalThis: `npm start` runs Next in the same process, and Next's bundles hold
 * their own copies of this module, so one set per module would hide their work from the shutdown.
 */
const PENDING_KEY = Symbol.for("flowpoint.afterResponse.pending");
const DEFAULT_SETTLE_TIMEOUT_MS = 15_000;

type PendingSet = Set<Promise<void>>;
const pending: PendingSet = ((globalThis as Record<symbol, PendingSet | undefined>)[PENDING_KEY] ??= new Set());

/**
 * Tracks a task without involving Next: for code served outside a Next request scope (the
 * production server's invocation path, the route-test harness), where after() would throw.
 */
export function trackAfterResponse(task: Promise<unknown>, label = "background task"): Promise<void> {
  const tracked: Promise<void> = task.then(
    () => undefined,
    (error: unknown) => log.error(`${label} failed`, { error }),
  );
  pending.add(tracked);
  void tracked.finally(() => pending.delete(tracked));
  return tracked;
}

/** Keeps a running task alive after the response: tracked in process, and through after() inside Next. */
export function waitUntil(task: Promise<unknown>): void {
  const tracked = trackAfterResponse(task);
  try {
    after(() => tracked);
  } catch {
    // Not in a Next request scope (tests, scripts, the production server's own paths): tracking suffices.
  }
}

/**
 * Starts `work` once the current task has run, so how long it takes cannot show in the answer
 * (request-password-reset answers at once whether or not an account exists); `label` names it
 * in the failure log.
 */
export function runAfterResponse(label: string, work: () => Promise<unknown>): void {
  const tracked = trackAfterResponse(Promise.resolve().then(work), label);
  try {
    after(() => tracked);
  } catch {
    // As in waitUntil.
  }
}

const SETTLE_FLUSHES_KEY = Symbol.for("flowpoint.afterResponse.settleFlushes");
const settleFlushes: Map<string, () => Promise<unknown>> = ((globalThis as Record<symbol, Map<string, () => Promise<unknown>> | undefined>)[SETTLE_FLUSHES_KEY] ??= new Map());

/**
 * Registers work that holds counts in memory and must write them before the process ends (the
 * endpoint call counters, lib/endpoint-analytics): every settleAfterResponseWork starts it once,
 * tracked like any task, before waiting. One registration per label.
 */
export function flushWhenSettling(label: string, flush: () => Promise<unknown>): void {
  settleFlushes.set(label, flush);
}

/** How many tasks are still running. */
export function pendingAfterResponseWork(): number {
  return pending.size;
}

/**
 * Waits for every tracked task, including tasks started meanwhile, at most `timeoutMs`. Answers
 * true when nothing is left running.
 */
export async function settleAfterResponseWork(timeoutMs = DEFAULT_SETTLE_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (const [label, flush] of settleFlushes) trackAfterResponse(Promise.resolve().then(flush), label);
  while (pending.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, left);
    });
    // Tracked tasks never reject.
    await Promise.race([Promise.all(pending), timeout]);
    clearTimeout(timer);
  }
  return true;
}
