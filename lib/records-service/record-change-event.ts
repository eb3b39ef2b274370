import type { PublicRecord } from "./present-record";

/**
 * Record changes made through the records API and the dashboard: they queue the runs of the
 * project's record automations before the write is answered, then reach in-process subscribers
 * (record-events.ts). Writes made by flows never emit (no chain reactions): the record services
 * emit only when their `origin` is "api".
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
