import { after } from "next/server";
import { log } from "@/lib/log";

/**
 * Keeps work that runs after the response alive inside Next (route handlers on serverless hosts
 * would otherwise freeze it). Outside a Next request scope (tests, scripts) the work simply runs on.
 */
export function waitUntil(task: Promise<unknown>): void {
  const settled = task.catch((error: unknown) => log.error("background task failed", { error }));
  try {
    after(() => settled);
  } catch {
    // Not in a Next request scope: the promise runs to completion on its own.
  }
}
