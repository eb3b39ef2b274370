import { log } from "@/lib/log";
import { queueRecordTriggers } from "@/lib/automations/queue-record-triggers";
import type { RecordEventPlan } from "@/lib/automations/record-event-outbox";
import type { RecordChangeEvent } from "./record-change-event";

export type { RecordChangeEvent } from "./record-change-event";

/** A subscriber to record changes (onRecordChange). */
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

/**
 * Queues the automation runs the change triggers (resolves once they are queued or kept in the
 * outbox), then delivers the event to every subscriber. `plan` is the one the write was made with
 * (planRecordEvent: its outbox entry was stored with the record). Called by the record services;
 * never rejects. Not an async function, as it is on the path of every records API write.
 */
export function emitRecordChange(event: RecordChangeEvent, plan?: RecordEventPlan | null): Promise<void> {
  // Never throws or rejects: what cannot be queued is logged there and kept for the drain.
  const queued = queueRecordTriggers(event, plan);
  if (handlers.size === 0) return queued;
  return queued.then(() => deliverRecordChange(event));
}

function deliverRecordChange(event: RecordChangeEvent): void {
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
