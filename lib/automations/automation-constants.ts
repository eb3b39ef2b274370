/**
 * The automation contract's constants without its zod schemas (automation-definition.ts), so that
 * the automation editor's first scripts need no zod.
 */
export const TRIGGER_TYPES = ["form", "record", "schedule", "manual"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const RECORD_EVENTS = ["create", "update", "delete"] as const;
export type RecordEventType = (typeof RECORD_EVENTS)[number];

export const MAX_RETRY_ATTEMPTS = 5;
export const MAX_BACKOFF_SECONDS = 3_600;
export const DEFAULT_BACKOFF_SECONDS = 30;
