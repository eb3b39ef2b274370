import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";

/**
 * Execution logs wait here and are written in batches, one multi-row insert per batch and one
 * batch at a time per customer database: at peak, one insert per call would hold the project's
 * small pool, make the request's own queries wait behind logs, and time waiters out. The queue is
 * bounded; past the bound entries are dropped with one throttled warning.
 */
const MAX_BATCH = 200;
const MAX_QUEUED_PER_STORE = 20_000;
const WRITE_TIMEOUT_MS = 30_000;
const WARNING_INTERVAL_MS = 30_000;

interface QueuedEntry {
  entry: ExecutionLogEntry;
  settle: (written: boolean) => void;
}

interface StoreQueue {
  projectId: string;
  waiting: QueuedEntry[];
  flushing: boolean;
}

const queues = new Map<RecordStore, StoreQueue>();
let lastWarning = 0;

function warnThrottled(message: string, fields: Record<string, unknown>): void {
  if (Date.now() - lastWarning < WARNING_INTERVAL_MS) return;
  lastWarning = Date.now();
  log.warn(message, fields);
}

/** Errors that say the database did not take the batch as a whole, so each entry may still go in alone. */
function isEntryProblem(error: unknown): boolean {
  return error instanceof AppError && (error.code === "validation_failed" || error.code === "unique_violation");
}

async function writeBatch(store: RecordStore, queue: StoreQueue, batch: QueuedEntry[]): Promise<void> {
  const documents = batch.map((item) => item.entry as unknown as Record<string, unknown>);
  try {
    await store.insertMany(EXECUTIONS_COLLECTION, documents, { timeoutMs: WRITE_TIMEOUT_MS });
    for (const item of batch) item.settle(true);
    return;
  } catch (error) {
    if (!isEntryProblem(error) || batch.length === 1) {
      log.error("execution logs could not be written", { projectId: queue.projectId, entries: batch.length, error });
      for (const item of batch) item.settle(false);
      return;
    }
  }
  // One entry the database refuses must not cost the others theirs.
  for (const item of batch) {
    try {
      await store.insert(EXECUTIONS_COLLECTION, item.entry as unknown as Record<string, unknown>, { timeoutMs: WRITE_TIMEOUT_MS });
      item.settle(true);
    } catch (error) {
      log.error("execution log could not be written", { projectId: queue.projectId, executionId: item.entry.id, error });
      item.settle(false);
    }
  }
}

async function flush(store: RecordStore, queue: StoreQueue): Promise<void> {
  try {
    while (queue.waiting.length > 0) {
      await writeBatch(store, queue, queue.waiting.splice(0, MAX_BATCH));
    }
  } finally {
    queue.flushing = false;
    if (queue.waiting.length === 0) queues.delete(store);
  }
}

/**
 * Queues an entry for the store's next batch. Answers true once it is stored, false when it was
 * dropped (queue full) or could not be written (already reported in the server log); never throws.
 */
export function queueExecutionLogEntry(store: RecordStore, projectId: string, entry: ExecutionLogEntry): Promise<boolean> {
  const queue = queues.get(store) ?? { projectId, waiting: [], flushing: false };
  queues.set(store, queue);
  if (queue.waiting.length >= MAX_QUEUED_PER_STORE) {
    warnThrottled("execution log queue is full: dropping entries", { projectId, queued: queue.waiting.length });
    return Promise.resolve(false);
  }
  const written = new Promise<boolean>((resolve) => queue.waiting.push({ entry, settle: resolve }));
  // Entries queued in the same turn of the event loop go out together.
  if (!queue.flushing) {
    queue.flushing = true;
    queueMicrotask(() => void flush(store, queue));
  }
  return written;
}
