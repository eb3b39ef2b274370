import { log } from "@/lib/log";
import { waitUntil } from "@/lib/http/wait-until";

const pending = new Set<Promise<void>>();

/**
 * Runs work after the answer has been sent, so that how long it takes cannot be measured by the
 * caller (request-password-reset answers at once whether or not an account exists). Failures are
 * logged, never thrown. The promise is tracked so that tests and a graceful shutdown can wait for it.
 */
export function runAfterResponse(label: string, work: () => Promise<void>): void {
  const running: Promise<void> = Promise.resolve()
    .then(work)
    .catch((error: unknown) => log.error(`${label} failed`, { error: error instanceof Error ? error.message : String(error) }))
    .finally(() => pending.delete(running));
  pending.add(running);
  // Inside Next (serverless hosts) the platform keeps the function alive for it.
  waitUntil(running);
}

/** Resolves once all work started with runAfterResponse (also work started meanwhile) has finished. */
export async function settleAfterResponseWork(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
