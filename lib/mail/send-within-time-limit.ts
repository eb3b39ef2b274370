import { AppError } from "@/lib/errors";

/**
 * Runs a transport's send (`work`) until it settles, the transport's time limit passes or the
 * caller's signal (a flow run's budget) aborts, whichever comes first. On the last two it rejects
 * with AppError("timeout") at once and aborts the signal handed to `work`, which must then let go
 * of its sockets. (lib/records/run-with-deadline.ts is the record store's per-operation deadline.)
 */
export function sendWithinTimeLimit<T>(work: (signal: AbortSignal) => Promise<T>, options: { timeoutMs: number; signal?: AbortSignal; what: string }): Promise<T> {
  const cutOff = () => new AppError("timeout", `${options.what} was cut off: the run's time budget ran out`);
  if (options.signal?.aborted) return Promise.reject(cutOff());
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const stop = (error: AppError) => {
      settle(() => reject(error));
      controller.abort(error);
    };
    const onAbort = () => stop(cutOff());
    const timer = setTimeout(() => stop(new AppError("timeout", `${options.what} did not finish within ${options.timeoutMs} ms`)), options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(() => work(controller.signal))
      .then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
  });
}
