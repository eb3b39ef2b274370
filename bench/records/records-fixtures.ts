/**
 * What the records benchmark (`npm run bench -- --records N`) sets up: the invocation benchmark's
 * schemas and endpoints (bench/fixtures.ts), with `tickets` grown to N records and three fields
 * indexed, a small `inbox` collection for the simplest read, and three endpoints with one query step
 * each. Records are written as NDJSON lines, generated one at a time (a million never sit in memory).
 * The floor server (bench/reference/floor-server.ts) reads the same records with one SQL statement
 * each, so the two must be read together.
 */
import { ENDPOINTS, SCHEMAS } from "../fixtures";

/** Authors the tickets' relation points at (constant, so scenario 2 expands the same work at any N). */
export const RECORDS_AUTHORS = 100;
/** The simplest read: the open records of a small collection. */
export const INBOX_RECORDS = 60;
/** Tickets per owner: the selective filter matches about this many whatever N is. */
export const TICKETS_PER_OWNER = 100;
/** Query step limit and records API perPage of the selective scenarios (every match fits on one page). */
export const SELECTIVE_LIMIT = 100;
/** Query step limit and perPage of the unselective scenarios (status=open, sorted by due date). */
export const UNSELECTIVE_LIMIT = 50;
/** Query step limit of the simplest read (it matches 40 of 60). */
export const INBOX_LIMIT = 50;

const [authorsSchema, baseTicketsSchema, submissionsSchema] = SCHEMAS;

/** Tickets as a help desk keeps them: assigned to an agent, open or closed, priority 1 (low) to 5 (urgent). */
export const TICKETS_SCHEMA = {
  name: "tickets",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "owner", type: "string", indexed: true },
    { name: "status", type: "enum", values: ["open", "closed"], indexed: true },
    { name: "priority", type: "integer", indexed: true },
    { name: "dueAt", type: "datetime", indexed: true },
    { name: "body", type: "text" },
    { name: "author", type: "relation", target: "authors", many: false },
  ],
} as const;

/** The fields the benchmark indexes (the floor writes its conditions in their keys, as the store does). */
export const INDEXED_TICKET_FIELDS: readonly string[] = TICKETS_SCHEMA.fields.filter((field) => "indexed" in field && field.indexed).map((field) => field.name);

export const INBOX_SCHEMA = {
  name: "inbox",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "status", type: "enum", values: ["open", "closed"] },
    { name: "priority", type: "integer" },
    { name: "body", type: "text" },
  ],
} as const;

// The invocation benchmark's tickets must stay a subset of these: scenarios 1-4 and their reference read them.
const ticketFieldNames = new Set<string>(TICKETS_SCHEMA.fields.map((field) => field.name));
if (!baseTicketsSchema.fields.every((field) => ticketFieldNames.has(field.name))) throw new Error("TICKETS_SCHEMA lost a field of fixtures.ts's tickets");

export const RECORDS_SCHEMAS = [authorsSchema, TICKETS_SCHEMA, submissionsSchema, INBOX_SCHEMA] as const;

function queryEndpoint(options: { name: string; slug: string; schema: string; filters: string; sort?: string; limit: number; output: string }): Record<string, unknown> {
  return {
    name: options.name,
    method: "GET",
    slug: options.slug,
    auth: "public",
    steps: [{ type: "query", name: options.output, schema: options.schema, filters: options.filters, limit: options.limit, ...(options.sort ? { sort: options.sort } : {}) }],
    response: { status: 200, contentType: "application/json", body: `{{steps.${options.output}}}`, headers: {} },
  };
}

export const RECORDS_ENDPOINTS = {
  ...ENDPOINTS,
  byOwner: queryEndpoint({ name: "Tickets of an owner", slug: "tickets-by-owner", schema: "tickets", filters: "owner={{query.owner}}", limit: SELECTIVE_LIMIT, output: "tickets" }),
  openByDue: queryEndpoint({
    name: "Open tickets, latest due first",
    slug: "open-tickets-by-due",
    schema: "tickets",
    filters: "status=open",
    sort: "-dueAt",
    limit: UNSELECTIVE_LIMIT,
    output: "tickets",
  }),
  inboxOpen: queryEndpoint({ name: "Open inbox", slug: "inbox-open", schema: "inbox", filters: "status=open", limit: INBOX_LIMIT, output: "open" }),
} as const;

export type RecordsEndpointKey = keyof typeof RECORDS_ENDPOINTS;

/** Owners among N tickets: N ÷ 100, so that each has about 100 tickets. */
export function ownerCount(tickets: number): number {
  return Math.max(1, Math.round(tickets / TICKETS_PER_OWNER));
}

export function ownerName(index: number): string {
  return `agent-${String(index + 1).padStart(5, "0")}`;
}

/** A well-mixed 32-bit hash of the record's index (the same data on every run). */
function hash(index: number): number {
  let value = (index + 0x9e3779b9) | 0;
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35);
  return (value ^ (value >>> 16)) >>> 0;
}

const SUBJECTS = [
  "the export button does nothing on the reports page",
  "invoice PDF shows the wrong VAT number",
  "cannot reset my password from the mobile app",
  "webhook deliveries are delayed by several minutes",
  "the dashboard chart is empty for last month",
  "CSV import rejects dates in day/month/year order",
  "two-factor codes arrive after they expire",
  "search does not find customers by phone number",
];

const BODIES = [
  "Steps: open Reports, choose last month, press Export. Expected a CSV download; nothing happens and the console shows no error. It worked last week.",
  "Customer writes that the last three invoices carry the old VAT number although the company profile was updated on the 3rd. They need corrected copies for their accountant before the end of the quarter.",
  "Reported by phone. The reset link opens the app, which then shows a blank screen. Reinstalling did not help. Android 14, app version 5.2.1.",
  "Since Tuesday our order webhooks arrive 3 to 7 minutes late. Nothing changed on our side; the status page shows no incident.",
];

const DUE_FROM_MS = Date.UTC(2026, 0, 1);
const SECONDS_PER_YEAR = 365 * 24 * 3600;

/** About 1/3 closed, priorities skewed towards normal: 1 15 %, 2 20 %, 3 40 %, 4 15 %, 5 10 %. */
function ticketShape(index: number): { status: "open" | "closed"; priority: number; dueAt: string; subject: string; body: string } {
  const value = hash(index);
  const percent = value % 100;
  const priority = percent < 15 ? 1 : percent < 35 ? 2 : percent < 75 ? 3 : percent < 90 ? 4 : 5;
  return {
    status: (value >>> 8) % 3 === 0 ? "closed" : "open",
    priority,
    // Due within 2026, to the second: nearly every ticket has its own, as deadlines do.
    dueAt: new Date(DUE_FROM_MS + (hash(index + 0x5bd1e995) % SECONDS_PER_YEAR) * 1000).toISOString(),
    subject: SUBJECTS[(value >>> 12) % SUBJECTS.length] as string,
    body: BODIES[(value >>> 20) % BODIES.length] as string,
  };
}

/** Ticket `index` of `tickets`: owners interleaved (each owner's tickets spread over the whole table, as they arrive over time). */
export function ticketRecord(index: number, tickets: number, authorIds: readonly string[]): Record<string, unknown> {
  const shape = ticketShape(index);
  return {
    title: `Ticket ${index + 1}: ${shape.subject}`,
    owner: ownerName(index % ownerCount(tickets)),
    status: shape.status,
    priority: shape.priority,
    dueAt: shape.dueAt,
    body: shape.body,
    author: authorIds[index % authorIds.length],
  };
}

export function authorRecord(index: number): Record<string, unknown> {
  return { name: `Author ${index + 1}`, email: `author${index + 1}@example.com` };
}

/** 40 of the 60 are open. */
export function inboxRecord(index: number): Record<string, unknown> {
  return {
    title: `Inbox item ${index + 1}: ${SUBJECTS[index % SUBJECTS.length]}`,
    status: index % 3 === 2 ? "closed" : "open",
    priority: (index % 5) + 1,
    body: BODIES[index % BODIES.length],
  };
}

/** NDJSON lines of records from..to-1, generated on demand. */
export function* recordLines(from: number, to: number, record: (index: number) => Record<string, unknown>): Generator<string> {
  for (let index = from; index < to; index++) yield JSON.stringify(record(index));
}
