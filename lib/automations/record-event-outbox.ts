import { newId } from "@/lib/ids";
import { getProjectRuntime, recordTriggerKey, type RuntimeAutomation, type RuntimeAutomations } from "@/lib/endpoints/invoke/project-runtime";
import type { OutboxWrite, RecordStore } from "@/lib/records/record-store";
import type { RecordEventType } from "./automation-definition";

/**
 * The outbox of record events (issue 10): a records API or dashboard write that some automation
 * listens to stores an entry in the customer database's `_automation_outbox` together with the
 * record — in the same statement on PostgreSQL and PGlite (record-store.ts, OutboxWrite) — so
 * the event survives the process dying between the write and the queueing. The entry is removed
 * once its runs are queued; whatever is left is queued by the drain (queue/undelivered-jobs.ts).
 */
export const OUTBOX_COLLECTION = "_automation_outbox";

/** What a write that triggers automations needs to know, looked up once before the write. */
export interface RecordEventPlan {
  /** The entry written with the record; its id is the event's id (and part of every job's id). */
  outbox: OutboxWrite;
  automations: readonly RuntimeAutomation[];
  store: RecordStore;
}

/** The entry's `event` field: which change, of which schema. */
export interface OutboxEvent {
  type: RecordEventType;
  schema: string;
}

export interface PlanRecordEventOptions {
  projectId: string;
  schema: string;
  type: RecordEventType;
  /** Where the record is written (and so its outbox entry). */
  store: RecordStore;
  /** The project's record triggers when the caller has its runtime at hand; looked up otherwise. */
  recordTriggers?: RuntimeAutomations["records"];
}

/**
 * Null when no enabled automation listens for this change (the write then costs nothing extra);
 * otherwise the outbox entry to write with it. From the runtime cache: no platform database read.
 * Answers at once (no promise) when the caller gave the project's record triggers.
 */
export function planRecordEvent(options: PlanRecordEventOptions): RecordEventPlan | null | Promise<RecordEventPlan | null> {
  if (options.recordTriggers) return planFromTriggers(options.recordTriggers, options);
  return getProjectRuntime(options.projectId).then((runtime) => planFromTriggers(runtime?.automations.records, options));
}

function planFromTriggers(triggers: RuntimeAutomations["records"] | undefined, options: PlanRecordEventOptions): RecordEventPlan | null {
  const automations = triggers?.get(recordTriggerKey(options.schema, options.type));
  if (!automations || automations.length === 0) return null;
  return { outbox: { collection: OUTBOX_COLLECTION, id: newId("event"), event: { type: options.type, schema: options.schema } }, automations, store: options.store };
}
