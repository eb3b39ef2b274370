import { AppError } from "@/lib/errors";
import type { RecordStore, WriteOptions } from "@/lib/records/record-store";
import type { RecordEventType } from "@/lib/automations/automation-definition";
import { planRecordEvent, type RecordEventPlan } from "@/lib/automations/record-event-outbox";
import type { RuntimeAutomations } from "@/lib/endpoints/invoke/project-runtime";
import { RESERVED_FIELD_NAMES, type SchemaDefinition } from "@/lib/schemas/schema-definition";

/** What every record service needs; none of it is looked up inside, so callers decide where it comes from. */
export interface RecordServiceOptions {
  /** The project's customer database. */
  store: RecordStore;
  /** The schema whose records are read or written (a collection or auth schema). */
  schema: SchemaDefinition;
  /** The project's schema definitions: relation targets and components are found here by name. */
  schemas: readonly SchemaDefinition[];
  /** Cuts the operation off (a flow's run budget, a closed request). */
  signal?: AbortSignal;
}

export interface RecordWriteOptions extends RecordServiceOptions {
  projectId: string;
  /**
   * "api": a records API call (or the dashboard); emits a record-change event.
   * "flow": a flow's create/update step; never emits, so automations cannot trigger each other.
   */
  origin: "api" | "flow";
  /** The project's record triggers, when the caller has its runtime at hand (origin "api"); looked up otherwise. */
  recordTriggers?: RuntimeAutomations["records"];
}

/**
 * What an "api" write triggers (null: nothing listens), planned before the write; flows trigger
 * nothing. A promise only when the project's record triggers must be looked up (see planRecordEvent).
 */
export function planWriteEvent(options: RecordWriteOptions, type: RecordEventType): RecordEventPlan | null | Promise<RecordEventPlan | null> {
  if (options.origin !== "api") return null;
  return planRecordEvent({ projectId: options.projectId, schema: options.schema.name, type, store: options.store, recordTriggers: options.recordTriggers });
}

/** Components are field groups inside other records; they have no collection of their own. */
export function assertSchemaHasRecords(schema: SchemaDefinition): void {
  if (schema.kind === "component") {
    throw new AppError("not_found", `"${schema.name}" is a component: it has no records of its own`);
  }
}

/** The store's operation options for a signal, without an undefined key. */
export function operationOptions(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}

/** A write's options: the signal, and the outbox entry of a write that automations listen to. */
export function writeOptions(signal: AbortSignal | undefined, plan: RecordEventPlan | null): WriteOptions {
  return plan ? { ...operationOptions(signal), outbox: plan.outbox } : operationOptions(signal);
}

/**
 * Server-side values stored with a record but never answered by the API (the auth feature's
 * password hash and token hashes). They must not collide with the schema's fields, system fields
 * or the forbidden key shapes; a collision is a programming error.
 */
export type HiddenValues = Record<string, unknown>;

export function assertHiddenValues(schema: SchemaDefinition, hiddenValues: HiddenValues | undefined, declared: readonly string[]): void {
  for (const key of Object.keys(hiddenValues ?? {})) {
    if (key.startsWith("$") || key.includes(".") || key === "__proto__" || [...RESERVED_FIELD_NAMES, ...declared].includes(key)) {
      throw new AppError("internal", `hidden value "${key}" collides with a field of ${schema.name}`);
    }
  }
}
