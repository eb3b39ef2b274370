import { log } from "@/lib/log";

/**
 * Execution-log writes wait here rather than in the database pool: at peak a project's pool
 * would otherwise time its waiters out and drop logs. A few writes per project run at once; the
 * rest queue up to a bound, past which entries are dropped with one throttled warning.
 */
const CONCURRENT_WRITES_PER_PROJECT = 2;
const MAX_QUEUED_PER_PROJECT = 20_000;
const WARNING_INTERVAL_MS = 30_000;

interface ProjectQueue {
  running: number;
  waiting: Array<() => void>;
}

const queues = new Map<string, ProjectQueue>();
let lastWarning = 0;

/** Runs `write` when the project's turn comes; answers false when the queue was full and it was dropped. */
export async function enqueueLogWrite(projectId: string, write: () => Promise<void>): Promise<boolean> {
  let queue = queues.get(projectId);
  if (!queue) {
    queue = { running: 0, waiting: [] };
    queues.set(projectId, queue);
  }
  if (queue.running >= CONCURRENT_WRITES_PER_PROJECT) {
    if (queue.waiting.length >= MAX_QUEUED_PER_PROJECT) {
      if (Date.now() - lastWarning > WARNING_INTERVAL_MS) {
        lastWarning = Date.now();
        log.warn("execution log queue is full: dropping entries", { projectId, queued: queue.waiting.length });
      }
      return false;
    }
    await new Promise<void>((resolve) => queue.waiting.push(resolve));
  }
  queue.running += 1;
  try {
    await write();
    return true;
  } finally {
    queue.running -= 1;
    const next = queue.waiting.shift();
    if (next) next();
    else if (queue.running === 0) queues.delete(projectId);
  }
}
