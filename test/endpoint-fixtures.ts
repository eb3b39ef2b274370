import { createSchema } from "@/lib/schemas/create-schema";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { createRecord } from "@/lib/records-service/create-record";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { PublicRecord } from "@/lib/records-service/present-record";

/** The schemas of the specification's example flows: tickets with an author relation. */
export async function createTicketSchemas(projectId: string): Promise<void> {
  const store = await getProjectRecordStore({ projectId });
  await createSchema({ projectId, store, definition: { name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] } });
  await createSchema({
    projectId,
    store,
    definition: {
      name: "tickets",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "status", type: "enum", values: ["open", "closed"], required: true },
        { name: "priority", type: "integer" },
        { name: "author", type: "relation", target: "authors", many: false },
        { name: "owner", type: "string" },
      ],
    },
  });
}

export async function createTestRecord(projectId: string, schemaName: string, input: Record<string, unknown>): Promise<PublicRecord> {
  const store = await getProjectRecordStore({ projectId });
  const schemas = await listSchemas({ projectId });
  const schema = schemas.find((candidate) => candidate.name === schemaName)!;
  return createRecord({ store, schema, schemas, projectId, origin: "api", input });
}

/** Example 1 of the specification: a composed read with expansion and a counting transform. */
export const composedReadEndpoint = {
  name: "Tickets by status",
  method: "GET",
  slug: "tickets-by-status",
  auth: "public",
  steps: [
    { type: "query", name: "tickets", schema: "tickets", limit: 50, expand: ["author"], sort: "title" },
    {
      type: "transform",
      name: "summary",
      expression:
        "{open: length(steps.tickets[?status=='open']), closed: length(steps.tickets[?status=='closed']), openTitles: steps.tickets[?status=='open'].title, authors: steps.tickets[].expand.author.name}",
    },
  ],
  response: { body: "{{steps.summary}}" },
};

/** Example 2: a validated intake; the condition stops with 422 and an error body. */
export const validatedIntakeEndpoint = {
  name: "Tickets with a status",
  method: "POST",
  slug: "tickets-with-status",
  auth: "public",
  steps: [
    {
      type: "condition",
      checks: [{ left: "{{body.status}}", operator: "exists" }],
      combinator: "all",
      stopStatus: 422,
      stopBody: '{"error": "status is required"}',
    },
    { type: "query", name: "matches", schema: "tickets", filters: "status={{body.status}}", limit: 100 },
  ],
  response: { status: 200, body: '{"status": "{{body.status}}", "count": {{steps.matches.length}}, "tickets": {{steps.matches}}}' },
};
