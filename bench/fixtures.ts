/**
 * What the benchmark sets up and sends: schemas, seed records, endpoint definitions and request
 * bodies. The app gets these through its management API; the reference server implements the
 * same work by hand (bench/reference/server.ts), so the two must be read together.
 */

export const SEED_AUTHORS = 20;
export const SEED_TICKETS = 200;
/** Records read by scenarios 1 and 2 (the query step's limit). */
export const PAGE_SIZE = 50;
/** Long enough that a cached entry never expires during a run. */
export const CACHE_SECONDS = 3600;

export const SCHEMAS = [
  {
    name: "authors",
    kind: "collection",
    fields: [
      { name: "name", type: "string", required: true },
      { name: "email", type: "email" },
    ],
  },
  {
    name: "tickets",
    kind: "collection",
    fields: [
      { name: "title", type: "string", required: true },
      { name: "status", type: "enum", values: ["open", "closed"] },
      { name: "priority", type: "integer" },
      { name: "body", type: "text" },
      { name: "author", type: "relation", target: "authors", many: false },
    ],
  },
  {
    name: "submissions",
    kind: "collection",
    fields: [
      { name: "name", type: "string", required: true },
      { name: "email", type: "email", required: true },
      { name: "message", type: "text" },
    ],
  },
] as const;

export function authorSeed(index: number): Record<string, unknown> {
  return { name: `Author ${index + 1}`, email: `author${index + 1}@example.com` };
}

export function ticketSeed(index: number, authorIds: readonly string[]): Record<string, unknown> {
  return {
    title: `Ticket ${index + 1}: the export button does nothing on the reports page`,
    status: index % 3 === 0 ? "closed" : "open",
    priority: index % 5,
    body: "Steps: open Reports, choose last month, press Export. Expected a CSV download; nothing happens and the console shows no error. ".repeat(2),
    author: authorIds[index % authorIds.length],
  };
}

/** The transform of scenarios 1 and 2 (JMESPath over the whole context). */
export const TICKETS_TRANSFORM = "steps.tickets[].{id: id, title: title, status: status, priority: priority, author: expand.author.name}";

function ticketsEndpoint(slug: string, cacheSeconds: number): Record<string, unknown> {
  return {
    name: cacheSeconds > 0 ? "Tickets (cached)" : "Tickets",
    method: "GET",
    slug,
    auth: "public",
    cacheSeconds,
    steps: [
      { type: "query", name: "tickets", schema: "tickets", limit: PAGE_SIZE, expand: ["author"] },
      { type: "transform", name: "list", expression: TICKETS_TRANSFORM },
    ],
    response: { status: 200, contentType: "application/json", body: "{{steps.list}}", headers: {} },
  };
}

export const ENDPOINTS = {
  cached: ticketsEndpoint("tickets-cached", CACHE_SECONDS),
  uncached: ticketsEndpoint("tickets", 0),
  intake: {
    name: "Intake",
    method: "POST",
    slug: "intake",
    auth: "public",
    steps: [
      {
        type: "condition",
        checks: [
          { left: "{{body.email}}", operator: "exists" },
          { left: "{{body.name}}", operator: "exists" },
        ],
        combinator: "all",
      },
      { type: "create", name: "created", schema: "submissions", values: { name: "{{body.name}}", email: "{{body.email}}", message: "{{body.message}}" } },
    ],
    response: { status: 201, contentType: "application/json", body: "{{steps.created}}", headers: {} },
  },
} as const;

export type EndpointKey = keyof typeof ENDPOINTS;

/** Scenario 3: no email, so the condition stops the run (422, nothing written but the log). */
export const REJECTED_INTAKE_BODY = JSON.stringify({ name: "Ada Lovelace", message: "I would like a demo of your product." });
/** Scenario 4: a valid submission, stored as a record (201). */
export const ACCEPTED_INTAKE_BODY = JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com", message: "I would like a demo of your product." });
