import { LightAbortController } from "@/lib/abort/light-abort-controller";
import { AppError } from "@/lib/errors";
import type { OperationOptions } from "./record-store";

/** Applies when the caller gives no timeoutMs: no operation waits on a database forever. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 30_000;

export function timeoutError(): AppError {
  return new AppError("timeout", "the database did not answer in time");
}

export interface Deadline {
  /** Aborts when the caller's signal aborts or the time is up; adapters cancel their work on it. */
  signal: AbortSignal;
  /** Milliseconds left (at least 1), for server-side limits such as MongoDB's maxTimeMS. */
  remainingMs(): number;
}

/**
 * Runs one store operation under the caller's signal and timeout. The caller gets
 * AppError("timeout") as soon as either fires, even while the adapter is still cancelling its work
 * in the background; an operation that finishes after its deadline (PGlite runs on this thread and
 * cannot be interrupted) is reported as a timeout too. A write that times out may or may not have
 * been applied.
 */
export async function runWithDeadline<T>(options: OperationOptions | undefined, defaultTimeoutMs: number, work: (deadline: Deadline) => Promise<T>): Promise<T> {
  const callerSignal = options?.signal;
  if (callerSignal?.aborted) throw timeoutError();
  const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new AppError("validation_failed", "invalid timeout", { issues: [{ path: "timeoutMs", message: "must be a number of milliseconds, 0 or more" }] });
  }
  if (timeoutMs === 0) throw timeoutError();
  const endsAt = performance.now() + timeoutMs;
  const controller = new LightAbortController();
  const abort = () => controller.abort();
  const timer = Number.isFinite(timeoutMs) ? setTimeout(abort, timeoutMs) : undefined;
  callerSignal?.addEventListener("abort", abort, { once: true });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(timeoutError());
    controller.signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  const deadline: Deadline = { signal: controller.signal, remainingMs: () => Math.max(1, Math.ceil(endsAt - performance.now())) };
  const running = work(deadline);
  running.catch(() => undefined);
  try {
    const result = await Promise.race([running, aborted]);
    if (controller.signal.aborted || performance.now() >= endsAt) throw timeoutError();
    return result;
  } catch (error) {
    if (controller.signal.aborted || performance.now() >= endsAt) throw timeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", abort);
    if (onAbort) controller.signal.removeEventListener("abort", onAbort);
  }
}
