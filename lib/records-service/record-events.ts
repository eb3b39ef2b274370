import { log } from "@/lib/log";
import type { PublicRecord } from "./present-record";

/**
 * The in-process bus of record changes made through the records API. The automations feature
 * subscribes to it to run "record changed" flows. Writes made by flows never emit (no chain
 * reactions): the record services emit only when their `origin` is "api".
 */
export interface RecordChangeEvent {
  type: "create" | "update" | "delete";
  projectId: string;
  /** The schema's name. */
  schema: string;
  /** The record as the API answers it (hidden fields removed); for deletes, the deleted record. */
  record: PublicRecord;
  /** Updates only: the record before the change. */
  previous?: PublicRecord;
}

export type RecordChangeHandler = (event: RecordChangeEvent) => void | Promise<void>;

// Dev reloads modules: the subscribers must be the same set whichever copy of this module emits.
const globalBus = globalThis as typeof globalThis & { __recordChangeHandlers?: Set<RecordChangeHandler> };
const handlers = (globalBus.__recordChangeHandlers ??= new Set());

/**
 * Subscribes to record changes; answers the function that unsubscribes. Handlers are called
 * synchronously after the write has been stored, in subscription order; they should hand slow
 * work off (queue it) rather than do it inline. A handler that throws or rejects is logged and
 * never affects the write or the other handlers.
 */
export function onRecordChange(handler: RecordChangeHandler): () => void {
  // Wrapped so that subscribing the same function twice gives two independent subscriptions.
  const subscription: RecordChangeHandler = (event) => handler(event);
  handlers.add(subscription);
  return () => {
    handlers.delete(subscription);
  };
}

function reportHandlerFailure(event: RecordChangeEvent, error: unknown): void {
  log.error("record change handler failed", {
    projectId: event.projectId,
    schema: event.schema,
    type: event.type,
    recordId: event.record.id,
    error: error instanceof Error ? error.message : String(error),
  });
}

/** Delivers an event to every subscriber. Called by the record services; never throws. */
export function emitRecordChange(event: RecordChangeEvent): void {
  for (const handler of [...handlers]) {
    try {
      const result = handler(event);
      if (result && typeof (result as Promise<void>).then === "function") {
        (result as Promise<void>).then(undefined, (error: unknown) => reportHandlerFailure(event, error));
      }
    } catch (error) {
      reportHandlerFailure(event, error);
    }
  }
}
