import { describe, expect } from "vitest";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { EXECUTIONS_COLLECTION } from "@/lib/flow/execution-log/execution-log-entry";
import { buildExecutionLogEntry } from "@/lib/flow/execution-log/write-execution-log";
import { newId } from "@/lib/ids";
import { getProjectOrThrow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { findExecutionById } from "@/app/(dashboard)/projects/[projectId]/_data/load-executions";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * The executions viewer's filters never reach past the project in the URL: every project's log
 * lives in its own customer database, and the list, the search by id and the cursor read only that
 * one. Another project's endpoint, automation or execution ids are just values that match nothing.
 */

type Page = { data: ExecutionLogEntry[]; nextBefore: string | null };

interface ProjectWithRuns {
  fixture: ProjectFixture;
  endpointId: string;
  automationId: string;
  callId: string;
  automationRunId: string;
}

/** A project with an endpoint that was called once and an automation run in its log. */
async function projectWithRuns(server: { url: string }, fixture: ProjectFixture, slug: string): Promise<ProjectWithRuns> {
  const api = projectApi(server, fixture);
  const endpoint = await api.call("POST", "/endpoints", { name: slug, method: "GET", slug, response: { body: '{"ok": true}' } });
  expect(endpoint.status, endpoint.text).toBe(201);
  const call = await api.invoke(slug);
  expect(call.status).toBe(200);
  const automationId = newId("automation");
  const automationRunId = newId("execution");
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  await store.insert(
    EXECUTIONS_COLLECTION,
    buildExecutionLogEntry({
      executionId: automationRunId,
      source: { type: "automation", automationId, trigger: "manual", attempt: 1 },
      startedAt: new Date(),
      run: null,
      httpStatus: null,
    }) as unknown as Record<string, unknown>,
  );
  return { fixture, endpointId: endpoint.body.id as string, automationId, callId: call.headers.get("x-execution-id")!, automationRunId };
}

const test = routeTest
  .extend("mine", { scope: "file" }, async ({ server, project }) => projectWithRuns(server, project, "mine"))
  .extend("theirs", { scope: "file" }, async ({ server }) => projectWithRuns(server, await createProjectFixture("Someone else's"), "theirs"));

describe("execution filters stay inside the project", () => {
  test("another project's endpoint, automation and execution ids match nothing in this project's log", async ({ server, mine, theirs }) => {
    await server.drain();
    const key = await mine.fixture.keyFor(["endpoints.read", "automations.read"]);
    const api = projectApi(server, mine.fixture, { key });
    for (const search of [`endpointId=${theirs.endpointId}`, `automationId=${theirs.automationId}`]) {
      const answer = await api.call<Page>("GET", `/executions?${search}`);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ data: [], nextBefore: null });
    }
    // Their run's id as a cursor only bounds this project's own entries.
    const cursor = await api.call<Page>("GET", `/executions?before=${theirs.automationRunId}&limit=100`);
    expect(cursor.status).toBe(200);
    expect(cursor.body.data.map((entry) => entry.id)).not.toContain(theirs.callId);
    expect(cursor.body.data.every((entry) => entry.endpointId === null || entry.endpointId === mine.endpointId)).toBe(true);
    for (const id of [theirs.callId, theirs.automationRunId]) expect((await api.call("GET", `/executions/${id}`)).status).toBe(404);
    // Everything unfiltered is this project's own.
    const all = await api.call<Page>("GET", "/executions?limit=100");
    expect(all.body.data.map((entry) => entry.id).sort()).toEqual([mine.callId, mine.automationRunId].sort());
  });

  test("another project's log cannot be listed, filtered or searched with this project's key or session", async ({ server, mine, theirs }) => {
    const key = await mine.fixture.keyFor(["endpoints.read", "automations.read"]);
    for (const credentials of [{ key }, { cookie: mine.fixture.owner.cookie }]) {
      const intoTheirs = projectApi(server, mine.fixture, credentials).with({ projectId: theirs.fixture.projectId });
      for (const path of [
        "/executions",
        `/executions?endpointId=${theirs.endpointId}`,
        `/executions?automationId=${theirs.automationId}&status=2xx`,
        `/executions/${theirs.callId}`,
        `/endpoints/${theirs.endpointId}/executions?outcome=completed`,
      ]) {
        const answer = await intoTheirs.call("GET", path);
        expect(answer.status, `${path}: ${answer.text}`).toBe(404);
        expect(answer.text).not.toContain(theirs.callId);
      }
    }
    // This project's endpoint route does not list another project's endpoint.
    const ownRoute = await projectApi(server, mine.fixture, { key }).call("GET", `/endpoints/${theirs.endpointId}/executions`);
    expect(ownRoute.status).toBe(404);
  });

  test("the dashboard's search by execution id finds only this project's runs", async ({ mine, theirs }) => {
    const project = await getProjectOrThrow({ projectId: mine.fixture.projectId });
    expect(await findExecutionById({ project, executionId: ` ${mine.callId} ` })).toEqual({ found: true, executionId: mine.callId });
    expect(await findExecutionById({ project, executionId: theirs.callId })).toEqual({ found: false, message: `No run ${theirs.callId} in this project's log.` });
    expect(await findExecutionById({ project, executionId: "exe_<script>" })).toMatchObject({ found: false });
  });

  test("an API key reads only the runs its permissions cover, whatever the filters ask", async ({ server, mine }) => {
    const endpointsOnly = projectApi(server, mine.fixture, { key: await mine.fixture.keyFor(["endpoints.read"]) });
    const calls = await endpointsOnly.call<Page>("GET", "/executions?limit=100");
    expect(calls.body.data.map((entry) => entry.id)).toEqual([mine.callId]);
    const askedForAutomations = await endpointsOnly.call<Page>("GET", `/executions?source=automation&automationId=${mine.automationId}`);
    expect(askedForAutomations.body.data).toEqual([]);

    const automationsOnly = projectApi(server, mine.fixture, { key: await mine.fixture.keyFor(["automations.read"]) });
    const runs = await automationsOnly.call<Page>("GET", `/executions?limit=100&endpointId=${mine.endpointId}`);
    expect(runs.body.data).toEqual([]);
    const allRuns = await automationsOnly.call<Page>("GET", "/executions?limit=100");
    expect(allRuns.body.data.map((entry) => entry.id)).toEqual([mine.automationRunId]);

    const neither = projectApi(server, mine.fixture, { key: await mine.fixture.keyFor(["records.read"]) });
    expect((await neither.call("GET", "/executions")).status).toBe(403);
  });
});
