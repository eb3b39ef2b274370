import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowServices } from "@/lib/flow/engine/flow-services";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { validateFlow } from "@/lib/flow/flow-definition";
import { parsedStep, stepRunContext } from "@/lib/flow/testing/step-context";
import { createProjectFlowServices } from "@/lib/flow-services/create-project-flow-services";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectOrThrow } from "@/lib/projects/get-project-or-throw";
import type { RecordStore, StoredRecord } from "@/lib/records/record-store";
import { recordStoreBackends, type OpenedRecordStore } from "@/lib/records-service/testing/record-store-backends";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { createProjectFixture } from "@/test/fixtures";
import { runCreate } from "./create/run";
import { runQuery } from "./query/run";
import { runUpdate } from "./update/run";

/*
 * The steps run against the real records service of a project (lib/flow-services: schema checks,
 * filter coercion, relation expansion, validated writes) over each record-store backend. `status`
 * and `priority` are json fields: their filters are compared as the template rendered them, with no
 * coercion of text by field type, which is what these tests look at.
 */
/** Optional fields, by name and type. */
const typedFields = (types: Record<string, string>) => Object.entries(types).map(([name, type]) => ({ name, type }));

const schemas = [
  parseSchemaDefinition({ name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] }),
  parseSchemaDefinition({
    name: "tickets",
    kind: "collection",
    fields: [
      { name: "title", type: "string", required: true },
      ...typedFields({ status: "json", priority: "json", owner: "string" }),
      { name: "author", type: "relation", target: "authors" },
    ],
  }),
  parseSchemaDefinition({
    name: "messages",
    kind: "collection",
    fields: typedFields({ email: "email", age: "integer", subscribed: "boolean", tags: "json", note: "string", fixed: "integer" }),
  }),
];

afterAll(closePlatformDb);

if (!process.env.DATABASE_URL) {
  describe("query, create and update steps on PostgreSQL — skipped: DATABASE_URL is not set", () => {
    it.skip("runs against a real PostgreSQL server when DATABASE_URL is set", () => undefined);
  });
}

for (const backend of recordStoreBackends()) {
  describe(`query, create and update steps (${backend.name} record store)`, () => {
    let opened: OpenedRecordStore;
    let store: RecordStore;
    let services: FlowServices;
    let authors: StoredRecord[];

    beforeAll(async () => {
      const { projectId } = await createProjectFixture("Record steps");
      opened = await backend.open(projectId);
      store = opened.store;
      services = { records: createProjectFlowServices({ project: await getProjectOrThrow({ projectId }), schemas, store }).records };
      authors = [await store.insert("authors", { name: "Ann" }), await store.insert("authors", { name: "Bo" })];
      await store.insert("tickets", { title: "Printer", status: "open", priority: 3, owner: "usr_1", author: authors[0]?.id });
      await store.insert("tickets", { title: "Laptop", status: "closed", priority: 1, owner: "usr_2", author: authors[1]?.id });
      await store.insert("tickets", { title: "Phone", status: "open", priority: 2, owner: "usr_2", author: authors[1]?.id });
      await store.insert("tickets", { title: "Weird", status: { kind: "special" }, priority: 0, owner: "usr_3" });
    }, 60_000);

    afterAll(async () => {
      await opened?.cleanup();
    });

    describe("query step", () => {
      it("filters by equality with rendered values, sorts, limits and expands relations", async () => {
        const step = parsedStep({ type: "query", schema: "tickets", filters: "status={{query.status}}\n\n", sort: "-priority", limit: 10, expand: ["author"] });
        const records = await runQuery(step, stepRunContext({ context: { query: { status: "open" } }, services }));
        expect(records.map((record) => record.title)).toEqual(["Printer", "Phone"]);
        expect((records[0]?.expand as Record<string, StoredRecord>).author?.name).toBe("Ann");
        expect((records[1]?.expand as Record<string, StoredRecord>).author?.name).toBe("Bo");

        const limited = await runQuery(parsedStep({ type: "query", schema: "tickets", limit: 2, sort: "priority" }), stepRunContext({ services }));
        expect(limited.map((record) => record.title)).toEqual(["Weird", "Laptop"]);
      });

      it("a single placeholder keeps its type in a filter (a number matches a number)", async () => {
        const step = parsedStep({ type: "query", schema: "tickets", filters: "priority={{body.priority}}" });
        expect((await runQuery(step, stepRunContext({ context: { body: { priority: 2 } }, services }))).map((record) => record.title)).toEqual(["Phone"]);
        expect(await runQuery(step, stepRunContext({ context: { body: { priority: "2" } }, services }))).toEqual([]);
      });

      it("a filter value that is an object is a literal, never an operator", async () => {
        const step = parsedStep({ type: "query", schema: "tickets", filters: "status={{body.status}}" });
        // As an operator {"$ne": null} would match every ticket; as a literal it matches none.
        expect(await runQuery(step, stepRunContext({ context: { body: { status: { $ne: null } } }, services }))).toEqual([]);
        expect(await runQuery(step, stepRunContext({ context: { body: { status: { $gt: "" } } }, services }))).toEqual([]);
        const literal = await runQuery(step, stepRunContext({ context: { body: { status: { kind: "special" } } }, services }));
        expect(literal.map((record) => record.title)).toEqual(["Weird"]);
      });

      it("an unknown placeholder stays literal, so it matches nothing instead of everything", async () => {
        const step = parsedStep({ type: "query", schema: "tickets", filters: "owner={{user.id}}" });
        expect(await runQuery(step, stepRunContext({ context: { user: null }, services }))).toEqual([]);
        const mine = await runQuery(step, stepRunContext({ context: { user: { id: "usr_2" } }, services }));
        expect(mine.map((record) => record.title).sort()).toEqual(["Laptop", "Phone"]);
      });

      it("feeds templates and transforms in a flow (the spec's validated intake)", async () => {
        const result = await runFlow({
          steps: [
            { type: "condition", checks: [{ left: "{{body.status}}", operator: "exists" }], stopStatus: 422, stopBody: '{"error":"status is required"}' },
            { type: "query", name: "tickets", schema: "tickets", filters: "status={{body.status}}" },
            { type: "transform", name: "titles", expression: "steps.tickets[].title" },
          ],
          context: { body: { status: "open" } },
          services,
        });
        expect(result.outcome).toBe("completed");
        // Newest first: the records service's order where a query names no sort.
        expect(result.context.steps.titles).toEqual(["Phone", "Printer"]);
      });
    });

    describe("create step", () => {
      it("creates a record from rendered values, keeping types of single placeholders", async () => {
        const step = parsedStep({
          type: "create",
          schema: "messages",
          values: { email: "{{body.email}}", age: "{{body.age}}", subscribed: "{{body.subscribed}}", tags: "{{body.tags}}", note: "from {{body.email}}", fixed: 5 },
        });
        const record = await runCreate(step, stepRunContext({ context: { body: { email: "a@example.test", age: 41, subscribed: true, tags: ["x"] } }, services }));
        expect(record).toMatchObject({ email: "a@example.test", age: 41, subscribed: true, tags: ["x"], note: "from a@example.test", fixed: 5 });
        expect(typeof record.id).toBe("string");
        const [stored] = await store.find("messages", { where: [{ field: "id", op: "eq", value: record.id }] });
        expect(stored).toMatchObject({ age: 41, subscribed: true, tags: ["x"] });
      });

      it("a value that looks like a placeholder is stored as text, never evaluated", async () => {
        const record = await runCreate(
          parsedStep({ type: "create", schema: "messages", values: { note: "{{body.note}}" } }),
          stepRunContext({ context: { body: { note: "{{user.id}}" }, user: { id: "secret" } }, services }),
        );
        expect(record.note).toBe("{{user.id}}");
      });
    });

    describe("update step", () => {
      it("updates the first match and answers it with matched: true", async () => {
        const result = await runFlow({
          steps: [{ type: "update", name: "updated", schema: "tickets", filters: "title={{body.title}}", values: { status: "{{body.status}}", priority: "{{body.priority}}" } }],
          context: { body: { title: "Laptop", status: "reopened", priority: 5 } },
          services,
        });
        expect(result.outcome).toBe("completed");
        expect(result.context.steps.updated).toMatchObject({ title: "Laptop", status: "reopened", priority: 5, matched: true });
        const [stored] = await store.find("tickets", { where: [{ field: "title", op: "eq", value: "Laptop" }] });
        expect(stored).toMatchObject({ status: "reopened", priority: 5 });
      });

      it("answers {matched: false} when nothing matches", async () => {
        const step = parsedStep({ type: "update", schema: "tickets", filters: "title=Nothing like this", values: { status: "x" } });
        expect(await runUpdate(step, stepRunContext({ services }))).toEqual({ matched: false });
      });
    });
  });
}

describe("record step settings", () => {
  it("validates schema names, filters, limits, sort and expand when saved", () => {
    const result = validateFlow([
      { type: "query", schema: "" },
      { type: "query", schema: "tickets", filters: "status open" },
      { type: "query", schema: "tickets", filters: "1bad=x" },
      { type: "query", schema: "tickets", limit: 101 },
      { type: "query", schema: "tickets", limit: 0 },
      { type: "query", schema: "tickets", sort: "-" },
      { type: "query", schema: "tickets", expand: ["ok", "not ok"] },
      { type: "update", schema: "tickets", filters: "   \n", values: {} },
      { type: "create", schema: "tickets", values: { "bad field": "x" } },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      { path: "steps.0.schema", message: "choose a schema" },
      { path: "steps.1.filters", message: "line 1: expected field=value" },
      { path: "steps.2.filters", message: 'line 1: "1bad" is not a field name' },
      { path: "steps.3.limit", message: expect.stringMatching(/100/) },
      { path: "steps.4.limit", message: expect.stringMatching(/1/) },
      { path: "steps.5.sort", message: "must be a field name, optionally prefixed with - for descending" },
      { path: "steps.6.expand.1", message: expect.stringMatching(/field name/) },
      { path: "steps.7.filters", message: "add at least one filter (field=value)" },
      { path: "steps.8.values.bad field", message: expect.stringMatching(/field name/) },
    ]);
  });

  it("fills defaults", () => {
    const result = validateFlow([{ type: "query", schema: "tickets" }]);
    expect(result.ok && result.steps[0]).toEqual({
      type: "query",
      name: null,
      enabled: true,
      continueOnError: false,
      schema: "tickets",
      filters: "",
      limit: 20,
      sort: null,
      expand: [],
    });
  });
});
