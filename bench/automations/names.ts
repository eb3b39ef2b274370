/** Names the automation benchmark's runner and its reference processes share. */

/** The reference's BullMQ queue (under its own key prefix). */
export const REFERENCE_QUEUE = "bench-reference";
/** The customer-database schema holding the reference's `events` and `runs` tables. */
export const REFERENCE_SCHEMA = "bench_reference";
/** The app's schemas: writes go to `events`, the automation copies each into `copies`. */
export const EVENTS_SCHEMA = "events";
export const COPIES_SCHEMA = "copies";
