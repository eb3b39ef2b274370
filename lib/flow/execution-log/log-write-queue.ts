import { log } from "@/lib/log";
import type { RecordStore } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";
import { makeEntryStorable } from "./make-entry-storable";
import { summarizeExecutionLogEntry } from "./summarize-execution-log-entry";

/**
 * Execution logs wait here and are written in batches, one multi-row insert per batch and one
 * batch at a time per customer database (an idle one's after a short wait, GATHER_MS): at peak,
 * one insert per call would hold the project's small pool, make the request's own queries wait
 * behind logs, and time waiters out. The queue is bounded; past the bound entries are dropped with
 * one throttled warning. Nothing a caller sends can cost a call its log: entries are made storable
 * first (make-entry-storable.ts), a refused batch is written entry by entry, and an entry refused
 * even alone is stored as its summary.
 */
const MAX_BATCH = 200;
/**
 * How long an idle queue waits for company before it writes. Endpoints write their logs after the
 * response; an automation's job ends once its log is stored, but its run slot has already gone on,
 * and a test run's 10 ms more go unnoticed. At a moderate rate, though, each log alone was one
 * statement, commit and socket write of its own, an automation run's second statement. At 600
 * runs a second, 10 ms gathers about six logs a statement, and PostgreSQL's CPU per run fell by a
 * sixth (bench/README.md, 2026-12-06).
 */
const GATHER_MS = 10;
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

/** The code of an error from any module instance (a store opened by another bundle throws its own AppError class). */
function errorCode(error: unknown): unknown {
  return error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
}

/**
 * The database cannot be reached or did not answer in time: writing entries one by one would only
 * fail the same way, once per entry. Any other failure may be one entry's fault.
 */
function isDatabaseDown(error: unknown): boolean {
  const code = errorCode(error);
  return code === "unavailable" || code === "timeout";
}

/** The entry's id is taken: an earlier write stored it (MongoDB keeps a batch's first documents). */
function isAlreadyStored(error: unknown): boolean {
  return errorCode(error) === "unique_violation" && (error as { field?: unknown }).field === "id";
}

function asDocument(entry: ExecutionLogEntry): Record<string, unknown> {
  return entry as unknown as Record<string, unknown>;
}

type AloneResult = "written" | "lost" | "database down";

/** Writes one entry; one the database refuses is replaced by its summary rather than lost. */
async function writeAlone(store: RecordStore, queue: StoreQueue, entry: ExecutionLogEntry, refusal?: unknown): Promise<AloneResult> {
  if (refusal === undefined) {
    try {
      await store.insert(EXECUTIONS_COLLECTION, asDocument(entry), { timeoutMs: WRITE_TIMEOUT_MS });
      return "written";
    } catch (error) {
      if (isAlreadyStored(error)) return "written";
      if (isDatabaseDown(error)) {
        log.error("execution log could not be written", { projectId: queue.projectId, executionId: entry.id, error });
        return "database down";
      }
      refusal = error;
    }
  }
  log.warn("execution log refused: storing its summary", { projectId: queue.projectId, executionId: entry.id, error: refusal });
  try {
    await store.insert(EXECUTIONS_COLLECTION, asDocument(summarizeExecutionLogEntry(entry)), { timeoutMs: WRITE_TIMEOUT_MS });
    return "written";
  } catch (error) {
    if (isAlreadyStored(error)) return "written";
    log.error("execution log could not be written", { projectId: queue.projectId, executionId: entry.id, error });
    return isDatabaseDown(error) ? "database down" : "lost";
  }
}

async function writeBatch(store: RecordStore, queue: StoreQueue, batch: QueuedEntry[]): Promise<void> {
  let refusal: unknown;
  try {
    await store.insertMany(
      EXECUTIONS_COLLECTION,
      batch.map((item) => asDocument(item.entry)),
      { timeoutMs: WRITE_TIMEOUT_MS },
    );
    for (const item of batch) item.settle(true);
    return;
  } catch (error) {
    if (isDatabaseDown(error)) {
      log.error("execution logs could not be written", { projectId: queue.projectId, entries: batch.length, error });
      for (const item of batch) item.settle(false);
      return;
    }
    refusal = error;
  }
  // One entry the database refuses must not cost the others theirs, whatever class the error has.
  let databaseDown = false;
  for (const item of batch) {
    if (databaseDown) {
      item.settle(false);
      continue;
    }
    // A batch of one was already tried alone.
    const result = await writeAlone(store, queue, item.entry, batch.length === 1 ? refusal : undefined);
    databaseDown = result === "database down";
    item.settle(result === "written");
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

function storableEntry(entry: ExecutionLogEntry): ExecutionLogEntry {
  try {
    return makeEntryStorable(entry);
  } catch {
    // A value whose toJSON or getter throws must not cost the call its log.
    return summarizeExecutionLogEntry(entry);
  }
}

/**
 * Queues an entry for the store's next batch. Answers true once it (or, when the database refused
 * it, its summary) is stored, false when it was dropped (queue full) or could not be written
 * (already reported in the server log); never throws.
 */
export function queueExecutionLogEntry(store: RecordStore, projectId: string, entry: ExecutionLogEntry): Promise<boolean> {
  const queue = queues.get(store) ?? { projectId, waiting: [], flushing: false };
  queues.set(store, queue);
  if (queue.waiting.length >= MAX_QUEUED_PER_STORE) {
    warnThrottled("execution log queue is full: dropping entries", { projectId, queued: queue.waiting.length });
    return Promise.resolve(false);
  }
  const written = new Promise<boolean>((resolve) => queue.waiting.push({ entry: storableEntry(entry), settle: resolve }));
  // Entries queued within GATHER_MS of an idle queue's first one go out together; while a batch is
  // on its way, the entries queued meanwhile wait for it and leave together next.
  if (!queue.flushing) {
    queue.flushing = true;
    setTimeout(() => void flush(store, queue), GATHER_MS);
  }
  return written;
}
