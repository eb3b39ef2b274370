import { describe, expect } from "vitest";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { buildExecutionLogEntry } from "@/lib/flow/execution-log/write-execution-log";
import { newId, smallestIdAt } from "@/lib/ids";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { routeTest } from "@/test/support/route-test";
import type { ApiAnswer, ProjectApi } from "@/test/support/project-api";

/**
 * The executions viewer's API over real HTTP (route handlers on the embedded PGlite store, or
 * PostgreSQL with DATABASE_URL): filters by endpoint, automation, source, outcome, status code and
 * start time; cursor paging through hundreds of runs; the answer an endpoint sent, as its log keeps it;
 * and the import's dry run.
 */

type Page = { data: ExecutionLogEntry[]; nextBefore: string | null };

const RUNS = 250;
const BASE_MS = Date.parse("2026-03-01T00:00:00.000Z");
const MINUTE = 60_000;

/** Run i's id at its start time (as newId would mint it then), unique by its counter. */
function runIdAt(ms: number, counter: number): string {
  return `${smallestIdAt("execution", ms).slice(0, -4)}${counter.toString(32).padStart(4, "0")}`;
}

interface PlantedRun {
  id: string;
  startedAt: string;
  endpointId: string | null;
  automationId: string | null;
  source: string;
  outcome: string;
  httpStatus: number | null;
}

/** 250 runs a minute apart: calls of two endpoints with statuses 200/404/500, test runs, and automation runs. */
function plantedRuns(endpointIds: [string, string], automationId: string): ExecutionLogEntry[] {
  return Array.from({ length: RUNS }, (_, index) => {
    const startedAt = new Date(BASE_MS + index * MINUTE);
    const executionId = runIdAt(startedAt.getTime(), index);
    const endpointId = endpointIds[index % 2]!;
    const httpStatus = [200, 200, 404, 500][index % 4]!;
    const kind = index % 10;
    const source =
      kind === 9
        ? ({ type: "automation", automationId, trigger: "manual", attempt: 1 } as const)
        : kind === 8
          ? ({ type: "test_run", endpointId } as const)
          : ({ type: "endpoint", endpointId, method: "GET", slug: `planted-${index % 2}` } as const);
    const entry = buildExecutionLogEntry({
      executionId,
      source,
      startedAt,
      run: null,
      httpStatus: source.type === "automation" ? null : httpStatus,
      error: null,
      request: { query: { index }, body: null },
    });
    // A run without a flow is logged as failed; these say what their status says.
    return { ...entry, outcome: entry.httpStatus === 200 ? ("completed" as const) : entry.httpStatus === 404 ? ("stopped" as const) : ("failed" as const) };
  });
}

const test = routeTest
  .extend("endpointIds", { scope: "file" }, async ({ ownerApi }) => {
    const ids: string[] = [];
    for (const slug of ["planted-0", "planted-1"]) {
      const created = await ownerApi.call("POST", "/endpoints", { name: slug, method: "GET", slug, response: { body: '{"ok": true}' } });
      expect(created.status, created.text).toBe(201);
      ids.push(created.body.id as string);
    }
    return ids as [string, string];
  })
  .extend("planted", { scope: "file" }, async ({ project, endpointIds }) => {
    const store = await getProjectRecordStore({ projectId: project.projectId });
    const automationId = newId("automation");
    const entries = plantedRuns(endpointIds, automationId);
    await store.insertMany(EXECUTIONS_COLLECTION, entries as unknown as Record<string, unknown>[]);
    const runs: PlantedRun[] = entries.map(({ id, startedAt, endpointId, automationId: automation, source, outcome, httpStatus }) => ({
      id,
      startedAt,
      endpointId,
      automationId: automation,
      source,
      outcome,
      httpStatus,
    }));
    return { automationId, runs };
  });

/** Every page of a listing, following nextBefore; fails on a repeated cursor. */
async function allPages(api: ProjectApi, path: string, search: string): Promise<{ pages: Page[]; ids: string[] }> {
  const pages: Page[] = [];
  let before: string | null = null;
  do {
    const answer: ApiAnswer<Page> = await api.call<Page>("GET", `${path}?${search}${before ? `&before=${before}` : ""}`);
    expect(answer.status, answer.text).toBe(200);
    pages.push(answer.body);
    if (answer.body.nextBefore !== null) expect(answer.body.nextBefore).not.toBe(before);
    before = answer.body.nextBefore;
  } while (before !== null && pages.length < 100);
  return { pages, ids: pages.flatMap((page) => page.data.map((entry) => entry.id)) };
}

function newestFirst(runs: PlantedRun[]): string[] {
  return runs.map((run) => run.id).sort((a, b) => (a < b ? 1 : -1));
}

describe("execution list filters and cursor", () => {
  test("pages through 250 runs newest first with no duplicates or gaps", async ({ ownerApi, planted }) => {
    const { pages, ids } = await allPages(ownerApi, "/executions", "limit=100");
    expect(pages.map((page) => page.data.length)).toEqual([100, 100, 50]);
    expect(pages.at(-1)?.nextBefore).toBeNull();
    expect(ids).toEqual(newestFirst(planted.runs));
    expect(new Set(ids).size).toBe(RUNS);
  });

  test("pages a filtered listing in small pages, matching exactly the runs the filters select", async ({ ownerApi, planted, endpointIds }) => {
    const { pages, ids } = await allPages(ownerApi, "/executions", `limit=7&endpointId=${endpointIds[1]}&outcome=failed`);
    const expected = planted.runs.filter((run) => run.endpointId === endpointIds[1] && run.outcome === "failed");
    expect(expected.length).toBeGreaterThan(20);
    expect(ids).toEqual(newestFirst(expected));
    expect(pages.length).toBe(Math.ceil(expected.length / 7));
  });

  test("filters by status code and by status class", async ({ ownerApi, planted }) => {
    const notFound = await allPages(ownerApi, "/executions", "limit=100&status=404");
    expect(notFound.ids).toEqual(newestFirst(planted.runs.filter((run) => run.httpStatus === 404)));
    const serverErrors = await allPages(ownerApi, "/executions", "limit=100&status=5xx");
    expect(serverErrors.ids).toEqual(newestFirst(planted.runs.filter((run) => run.httpStatus !== null && run.httpStatus >= 500)));
    expect(serverErrors.ids.length).toBeGreaterThan(0);
    const successes = await allPages(ownerApi, "/executions", "limit=100&status=2xx&source=test_run");
    expect(successes.ids).toEqual(newestFirst(planted.runs.filter((run) => run.httpStatus === 200 && run.source === "test_run")));
  });

  test("filters by time range: from inclusive, to exclusive, a zone-less time read as UTC", async ({ ownerApi, planted }) => {
    const from = new Date(BASE_MS + 30 * MINUTE);
    const to = new Date(BASE_MS + 75 * MINUTE);
    const expected = planted.runs.filter((run) => run.startedAt >= from.toISOString() && run.startedAt < to.toISOString());
    expect(expected).toHaveLength(45);
    const iso = await allPages(ownerApi, "/executions", `limit=20&from=${from.toISOString()}&to=${to.toISOString()}`);
    expect(iso.ids).toEqual(newestFirst(expected));
    // What a datetime-local control sends: no zone, no seconds.
    const local = await allPages(ownerApi, "/executions", "limit=100&from=2026-03-01T00:30&to=2026-03-01T01:15");
    expect(local.ids).toEqual(iso.ids);
    const withOffset = await allPages(ownerApi, "/executions", `limit=100&from=${encodeURIComponent("2026-03-01T01:30+01:00")}&to=2026-03-01T01:15:00Z`);
    expect(withOffset.ids).toEqual(iso.ids);
  });

  test("filters by automation and source, and combines every filter", async ({ ownerApi, planted, endpointIds }) => {
    const automationRuns = await allPages(ownerApi, "/executions", `limit=100&automationId=${planted.automationId}`);
    expect(automationRuns.ids).toEqual(newestFirst(planted.runs.filter((run) => run.source === "automation")));
    const from = new Date(BASE_MS + 100 * MINUTE).toISOString();
    const combined = await allPages(ownerApi, "/executions", `limit=3&endpointId=${endpointIds[1]}&source=endpoint&status=200&outcome=completed&from=${from}`);
    const expected = planted.runs.filter(
      (run) => run.endpointId === endpointIds[1] && run.source === "endpoint" && run.httpStatus === 200 && run.outcome === "completed" && run.startedAt >= from,
    );
    expect(expected.length).toBeGreaterThan(3);
    expect(combined.ids).toEqual(newestFirst(expected));
  });

  test("the endpoint's own listing takes the same filters", async ({ ownerApi, planted, endpointIds }) => {
    const to = new Date(BASE_MS + 200 * MINUTE).toISOString();
    const listed = await allPages(ownerApi, `/endpoints/${endpointIds[0]}/executions`, `limit=50&status=4xx&to=${to}`);
    expect(listed.ids).toEqual(newestFirst(planted.runs.filter((run) => run.endpointId === endpointIds[0] && run.httpStatus === 404 && run.startedAt < to)));
  });

  test("blank filters (a GET form's empty controls) are no filters", async ({ ownerApi }) => {
    const answer = await ownerApi.call<Page>("GET", "/executions?endpointId=&automationId=&source=&outcome=&status=&from=&to=&limit=5");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toHaveLength(5);
  });

  test("refuses malformed filters with 400 naming each one", async ({ ownerApi }) => {
    const answer = await ownerApi.call("GET", "/executions?status=42&from=yesterday&endpointId=ep_nope&before=exe_1&limit=500");
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("bad_request");
    expect(answer.body.issues?.map((issue) => issue.path).sort()).toEqual(["before", "endpointId", "from", "limit", "status"]);
    const reversed = await ownerApi.call("GET", "/executions?from=2026-03-02T00:00Z&to=2026-03-01T00:00Z");
    expect(reversed.status).toBe(400);
    expect(reversed.body.issues).toEqual([{ path: "to", message: "must be later than from" }]);
  });
});

describe("the answer an endpoint sent, in its log", () => {
  test("keeps the status, the content type and owner's headers with secrets masked, and a redacted body preview", async ({ server, ownerApi }) => {
    const created = await ownerApi.call("POST", "/endpoints", {
      name: "Answer with headers",
      method: "POST",
      slug: "answer-with-headers",
      response: {
        status: 201,
        body: '{"id": "{{body.id}}", "password": "{{body.password}}", "note": "{{query.note}}"}',
        headers: { "x-trace": "{{query.trace}}", "x-api-token": "{{body.password}}", "x-long": "{{body.long}}" },
      },
    });
    expect(created.status, created.text).toBe(201);
    const call = await ownerApi.invoke(
      "answer-with-headers",
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "t-1", password: "hunter2", long: "l".repeat(900) }) },
      "?trace=abc&note=Bearer%20xyz123",
    );
    expect(call.status).toBe(201);
    const executionId = call.headers.get("x-execution-id")!;
    await server.drain();

    const entry = await ownerApi.call<ExecutionLogEntry>("GET", `/executions/${executionId}`);
    expect(entry.status, entry.text).toBe(200);
    const response = entry.body.response!;
    expect(response.status).toBe(201);
    expect(response.headers).toMatchObject({ "content-type": "application/json; charset=utf-8", "x-trace": "abc", "x-api-token": "[redacted]" });
    expect(response.headers["x-long"]).toBe(`${"l".repeat(500)}…`);
    expect(response.headersCapped).toBe(true);
    expect(JSON.parse(response.body!)).toEqual({ id: "t-1", password: "[redacted]", note: "Bearer [redacted]" });
    expect(entry.text).not.toContain("hunter2");
    expect(entry.text).not.toContain("xyz123");
  });

  test("keeps the 500 a failed run answered, and caps a large text body", async ({ server, ownerApi }) => {
    const failingEndpoint = await ownerApi.call("POST", "/endpoints", {
      name: "Fails",
      method: "GET",
      slug: "fails-on-purpose",
      // abs() of a text fails when the step runs.
      steps: [{ type: "transform", name: "bad", expression: "abs(query.x)" }],
      response: { body: "{}" },
    });
    expect(failingEndpoint.status, failingEndpoint.text).toBe(201);
    const failing = await ownerApi.invoke("fails-on-purpose", {}, "?x=text");
    expect(failing.status).toBe(500);
    const failedId = failing.headers.get("x-execution-id")!;
    await server.drain();
    const failed = await ownerApi.call<ExecutionLogEntry>("GET", `/executions/${failedId}`);
    expect(failed.body.response).toEqual({
      status: 500,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ error: "endpoint execution failed", executionId: failedId }),
    });

    const created = await ownerApi.call("POST", "/endpoints", {
      name: "Big text",
      method: "POST",
      slug: "big-text",
      response: { contentType: "text/plain", body: "{{body.text}}" },
    });
    expect(created.status, created.text).toBe(201);
    const call = await ownerApi.invoke("big-text", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "x".repeat(10_000) }) });
    expect(call.status).toBe(200);
    await server.drain();
    const entry = await ownerApi.call<ExecutionLogEntry>("GET", `/executions/${call.headers.get("x-execution-id")}`);
    expect(entry.body.response?.headers).toEqual({ "content-type": "text/plain; charset=utf-8" });
    expect(entry.body.response?.body).toBe(`${"x".repeat(2_000)}… (cut at 2000 characters)`);
  });
});

describe("endpoint import dry run", () => {
  test("answers created / replaced (with the differing fields) / unchanged without writing, then applies the same plan", async ({ ownerApi }) => {
    const source = await ownerApi.call("POST", "/endpoints", { name: "Import me", method: "GET", slug: "import-me", response: { body: '{"v": 1}' } });
    expect(source.status, source.text).toBe(201);
    await ownerApi.call("POST", "/endpoints", { name: "Leave me", method: "GET", slug: "leave-me", response: { body: '{"v": 1}' } });
    const exported = await ownerApi.call<{ endpoints: Array<Record<string, unknown>> }>("GET", "/endpoints/export");
    const byslug = (slug: string) => exported.body.endpoints.find((endpoint) => endpoint.slug === slug)!;
    const document = {
      format: "flowpoint.endpoints",
      version: 1,
      endpoints: [
        { ...byslug("import-me"), name: "Imported", response: { ...(byslug("import-me").response as object), body: '{"v": 2}' } },
        byslug("leave-me"),
        { name: "Brand new", method: "POST", slug: "brand-new", response: { body: "{}" } },
      ],
    };
    const before = await ownerApi.call<{ data: Array<{ slug: string; version: number; name: string }> }>("GET", "/endpoints");

    const dryRun = await ownerApi.call("POST", "/endpoints/import?dryRun=true", document);
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body).toMatchObject({ dryRun: true, created: 1, updated: 1, unchanged: 1 });
    expect(dryRun.body.changes).toEqual([
      { method: "GET", slug: "import-me", name: "Imported", action: "replace", endpointId: source.body.id, changedFields: ["name", "response"] },
      { method: "GET", slug: "leave-me", name: "Leave me", action: "unchanged", endpointId: expect.stringMatching(/^ep_/), changedFields: [] },
      { method: "POST", slug: "brand-new", name: "Brand new", action: "create", endpointId: null, changedFields: [] },
    ]);
    const afterDryRun = await ownerApi.call("GET", "/endpoints");
    expect(afterDryRun.body).toEqual(before.body);
    expect((await ownerApi.invoke("brand-new", { method: "POST" })).status).toBe(404);

    const applied = await ownerApi.call("POST", "/endpoints/import", document);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ dryRun: false, created: 1, updated: 1, unchanged: 1, changes: dryRun.body.changes });
    const after = await ownerApi.call<{ data: Array<{ slug: string; version: number; name: string }> }>("GET", "/endpoints");
    const version = (list: typeof after.body, slug: string) => list.data.find((endpoint) => endpoint.slug === slug)?.version;
    expect(version(after.body, "import-me")).toBe(version(before.body, "import-me")! + 1);
    // Left alone: no new version, so its cached answers stay valid.
    expect(version(after.body, "leave-me")).toBe(version(before.body, "leave-me"));
    expect(await (await ownerApi.invoke("import-me")).json()).toEqual({ v: 2 });

    const again = await ownerApi.call("POST", "/endpoints/import?dryRun=true", document);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  test("a dry run validates like the import: an invalid document answers 422 and a bad flag 400", async ({ ownerApi }) => {
    const invalid = await ownerApi.call("POST", "/endpoints/import?dryRun=true", { endpoints: [{ name: "x", method: "GET", slug: "Bad Slug" }] });
    expect(invalid.status).toBe(422);
    expect(invalid.body.issues?.[0]?.path).toBe("endpoints.0.slug");
    const badFlag = await ownerApi.call("POST", "/endpoints/import?dryRun=maybe", { endpoints: [] });
    expect(badFlag.status).toBe(400);
  });
});
