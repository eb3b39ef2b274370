import { describe, expect, vi } from "vitest";
import { AppError } from "@/lib/errors";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { NUL_REPLACEMENT } from "@/lib/flow/execution-log/make-entry-storable";
import { getRecordStore, type RecordStoreTarget } from "@/lib/records/get-record-store";
import { createTicketSchemas } from "@/test/endpoint-fixtures";
import { backendProjectsOnce, projectBackends, type BackendProject } from "@/test/support/backend-projects";
import { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";
import { projectApi, type ApiAnswer, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Security issue 9, item 4: nothing a caller sends can suppress an execution log. Over real HTTP,
 * on the embedded PGlite store always and on PostgreSQL when DATABASE_URL is set. The project's
 * store is opened first by another copy of the modules, as when the production bundle opens it and
 * the custom server writes the logs: their AppError classes differ, so `instanceof` cannot be
 * what decides how a refused write or a failed step is handled.
 */

type Json = Record<string, unknown>;

const databaseHosts = createDatabaseHostAllowance();
const BACKENDS = projectBackends({ label: "Logs", databaseLabel: "execution_logs", databaseHosts, kinds: ["local", "postgres"] });

const it = routeTest
  /**
   * The project of each backend, opened on first use (its store first opened by another bundle, the
   * ticket schemas made) and called with a key; removed when the file ends.
   */
  .extend("logProject", { scope: "file" }, ({ server }, { onCleanup }) =>
    backendProjectsOnce(
      async (project) => {
        await openStoreFromAnotherBundle(project.target);
        await createTicketSchemas(project.projectId);
        const key = await project.keyFor(["endpoints.create", "endpoints.read", "endpoints.invoke", "records.read", "records.create"]);
        return { api: projectApi(server, project, { key }) };
      },
      { onCleanup, databaseHosts },
    ),
  );

/** The id of the execution an answer reports. */
const executionIdOf = (answer: ApiAnswer) => answer.headers.get("x-execution-id");

async function createEndpoint(api: ProjectApi, definition: Json): Promise<string> {
  const created = await api.call("POST", "/endpoints", { auth: "api_key", ...definition });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

async function logOf(api: ProjectApi, executionId: string): Promise<ExecutionLogEntry> {
  const read = await api.call("GET", `/executions/${executionId}`);
  expect(read.status, `log of ${executionId}: ${JSON.stringify(read.body)}`).toBe(200);
  return read.body as unknown as ExecutionLogEntry;
}

/** Opens the project's pooled store through a second copy of the modules (another bundle's classes). */
async function openStoreFromAnotherBundle(target: RecordStoreTarget): Promise<void> {
  // Whatever opened it so far (creating the project may have), it is opened again below.
  await getRecordStore(target).close();
  vi.resetModules();
  const foreign = await import("@/lib/records/get-record-store");
  const store = foreign.getRecordStore(target);
  await store.ping();
  // The pooled store, which every later call shares, now throws the other copy's AppError.
  const refused = await store.insert("tickets", { title: "\u0000" }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ code: "validation_failed" });
  expect(refused instanceof AppError).toBe(false);
}

function registerLogSuite(backend: { name: string; open: () => Promise<BackendProject> }): void {
  describe(`execution logs on ${backend.name}`, () => {
    // The project is opened under the hook timeout, not the first test's.
    it.beforeAll(async ({ logProject }) => void (await logProject(backend)), 120_000);

    it("logs every one of 40 concurrent calls, 10 of them with ?x=%00, marking those sanitized", async ({ server, logProject }) => {
      const { api } = await logProject(backend);
      const endpointId = await createEndpoint(api, {
        name: "Open a ticket",
        method: "POST",
        slug: "open-ticket",
        steps: [{ type: "create", name: "ticket", schema: "tickets", values: { title: "{{body.title}}", status: "open" } }],
        response: { status: 201, body: '{"id": "{{steps.ticket.id}}"}' },
      });
      const calls = await Promise.all(
        Array.from({ length: 40 }, (_, index) => {
          const poisoned = index % 4 === 0;
          return api.call("POST", `/fn/open-ticket${poisoned ? "?x=%00" : "?x=clean"}`, { title: `ticket ${index}` }).then((answer) => ({ ...answer, poisoned }));
        }),
      );
      expect(calls.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 201));
      expect(calls.filter((answer) => answer.poisoned)).toHaveLength(10);
      await server.drain();

      const listed = await api.call("GET", `/endpoints/${endpointId}/executions?limit=100`);
      const logs = listed.body.data as ExecutionLogEntry[];
      expect(logs).toHaveLength(40);
      const byId = new Map(logs.map((entry) => [entry.id, entry]));
      for (const answer of calls) {
        const entry = byId.get(executionIdOf(answer)!);
        expect(entry, executionIdOf(answer)!).toMatchObject({ outcome: "completed", httpStatus: 201 });
        if (answer.poisoned) {
          expect(entry).toMatchObject({ sanitized: true, request: { query: { x: NUL_REPLACEMENT } } });
          expect(entry!.note).toContain("replaced");
        } else {
          expect(entry!.sanitized).toBeUndefined();
          expect(entry!.request).toMatchObject({ query: { x: "clean" } });
        }
      }
      const records = await api.call("GET", "/records/tickets?perPage=100&filter[status]=open");
      expect((records.body.meta as { total: number }).total).toBeGreaterThanOrEqual(40);
    });

    it("logs calls whose query keys, values and body hold what the database refuses", async ({ server, logProject }) => {
      const { api } = await logProject(backend);
      await createEndpoint(api, { name: "Echo", method: "POST", slug: "echo", response: { body: '{"ok": true}' } });
      const answer = await api.call("POST", `/fn/echo?${encodeURIComponent("k\u0000")}=1&=empty&%24where=1&a.b=2`, '{"lone": "\\ud800", "nul": "\\u0000"}');
      expect(answer.status).toBe(200);
      await server.drain();
      const entry = await logOf(api, executionIdOf(answer)!);
      expect(entry).toMatchObject({ outcome: "completed", httpStatus: 200, sanitized: true });
      expect(entry.request?.query).toEqual({ [`k${NUL_REPLACEMENT}`]: "1", "(empty)": "empty", "＄where": "1", "a․b": "2" });
      // The body preview is JSON text, so it shows the escapes as sent.
      expect(entry.request?.body).toBe('{"lone":"\\ud800","nul":"\\u0000"}');
    });

    it("fails a query step given NUL or an unpaired surrogate as invalid input, never as an unexpected error", async ({ server, logProject }) => {
      const { api } = await logProject(backend);
      await createEndpoint(api, {
        name: "Find",
        method: "POST",
        slug: "find",
        steps: [
          { type: "query", name: "byQuery", schema: "tickets", filters: "title={{query.title}}" },
          { type: "query", name: "byBody", schema: "tickets", filters: "title={{body.title}}" },
        ],
        response: { body: '{"count": {{steps.byBody.length}}}' },
      });
      const cases: Array<[string, string, RegExp]> = [
        ["?title=%00", "{}", /^invalid filter on "title" \(title: must not contain the NUL character\)$/],
        ["?title=x", '{"title": "\\ud800"}', /^invalid filter on "title" \(title: must not contain unpaired UTF-16 surrogates\)$/],
        // An object literal reaches the store, whose refusal is another copy's AppError here.
        ["?title=x", '{"title": {"nested": "\\u0000"}}', /^invalid query \(where\.0\.value\.nested: text cannot contain the NUL character\)$/],
      ];
      for (const [search, body, stepError] of cases) {
        const answer = await api.call("POST", `/fn/find${search}`, body);
        expect(answer.status, search + body).toBe(500);
        expect(answer.body).toEqual({ error: "endpoint execution failed", executionId: executionIdOf(answer) });
        await server.drain();
        const entry = await logOf(api, executionIdOf(answer)!);
        const failed = entry.steps.find((step) => step.status === "failed");
        expect(failed?.error, search + body).toMatch(stepError);
        expect(failed?.error).not.toMatch(/internal error/);
      }
      // Keys no record can hold match nothing.
      const keyed = await api.call("POST", "/fn/find?title=x", '{"title": {"k\\u0000": 1}}');
      expect(keyed).toMatchObject({ status: 200, body: { count: 0 } });
      // The records API refuses the same filter with 400, on every backend.
      expect((await api.call("GET", "/records/tickets?filter[title]=%00")).status).toBe(400);
    });

    it("fails a create step given NUL with the records API's own answer", async ({ server, logProject }) => {
      const { api } = await logProject(backend);
      const direct = await api.call("POST", "/records/tickets", { title: "nul\u0000title", status: "open" });
      expect(direct.status).toBe(422);
      const lone = await api.call("POST", "/records/tickets", '{"title": "lone\\ud800", "status": "open"}');
      expect(lone.status).toBe(422);
      expect(lone.body.issues).toEqual([{ path: "title", message: "text cannot contain unpaired UTF-16 surrogates" }]);

      await createEndpoint(api, {
        name: "Create",
        method: "POST",
        slug: "create-raw",
        steps: [{ type: "create", name: "ticket", schema: "tickets", values: { title: "{{body.title}}", status: "open" } }],
        response: { status: 201, body: '{"id": "{{steps.ticket.id}}"}' },
      });
      for (const [body, apiAnswer] of [
        [{ title: "nul\u0000title" }, direct.body],
        ['{"title": "lone\\ud800"}', lone.body],
      ] as const) {
        const answer = await api.call("POST", "/fn/create-raw?x=%00", body);
        expect(answer.status).toBe(500);
        await server.drain();
        const entry = await logOf(api, executionIdOf(answer)!);
        const issues = (apiAnswer.issues as Array<{ path: string; message: string }>).map((issue) => `${issue.path}: ${issue.message}`).join("; ");
        expect(entry.steps[0]).toMatchObject({ type: "create", status: "failed", error: `${apiAnswer.error as string} (${issues})` });
        expect(entry).toMatchObject({ outcome: "failed", httpStatus: 500, sanitized: true });
      }
    });
  });
}

for (const backend of BACKENDS) {
  if (backend.open) registerLogSuite({ name: backend.name, open: backend.open });
  else describe(`execution logs on ${backend.name}`, () => it.skip(`runs when ${backend.skipped} is set`, () => undefined));
}
