import { describe, expect } from "vitest";
import { updateEndpoint } from "@/lib/endpoints/update-endpoint";
import { createProjectFixture } from "@/test/fixtures";
import { composedReadEndpoint, createTestRecord, createTicketSchemas, validatedIntakeEndpoint } from "@/test/endpoint-fixtures";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { externalRouteTest } from "@/test/support/route-test";

/** The client with a key for the endpoints API, on a helpdesk project: two authors and three tickets. */
const it = externalRouteTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  const { projectId } = project;
  await createTicketSchemas(projectId);
  const ann = await createTestRecord(projectId, "authors", { name: "Ann" });
  const bob = await createTestRecord(projectId, "authors", { name: "Bob" });
  await createTestRecord(projectId, "tickets", { title: "Broken login", status: "open", priority: 1, author: ann.id });
  await createTestRecord(projectId, "tickets", { title: "Slow page", status: "open", priority: 2, author: bob.id });
  await createTestRecord(projectId, "tickets", { title: "Typo", status: "closed", priority: 3, author: ann.id });
  return ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update", "endpoints.delete"]) } });
});

/**
 * Waits for the next minute when little is left of this one. The rate limit is a sliding window over
 * minute buckets that weighs the previous minute's count down as time passes, so counts read across a
 * boundary can repeat (a remaining count of 59, 59, 58, 57 once failed CI at hh:mm:00).
 */
async function startWellInsideAMinute(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
}

async function createEndpoint(api: ProjectApi, definition: unknown): Promise<{ id: string; version: number }> {
  const response = await api.manage("/endpoints", { method: "POST", body: JSON.stringify(definition) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; version: number };
}

describe("custom endpoints: the specification's example flows", () => {
  it("composed read: query with expansion, counting transform, {{steps.<name>}} served directly", async ({ server, api }) => {
    const created = await createEndpoint(api, composedReadEndpoint);
    expect(created.id).toMatch(/^ep_/);
    const response = await api.invoke("tickets-by-status");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("x-ratelimit-limit")).toBe("60");
    const executionId = response.headers.get("x-execution-id");
    expect(executionId).toMatch(/^exe_/);
    expect(await response.json()).toEqual({ open: 2, closed: 1, openTitles: ["Broken login", "Slow page"], authors: ["Ann", "Bob", "Ann"] });

    const log = await server.afterWork(
      async () => {
        const response = await api.manage(`/executions/${executionId}`);
        return { status: response.status, body: response.status === 200 ? await response.json() : null };
      },
      (answer) => answer.status === 200,
    );
    expect(log.status).toBe(200);
    const entry = log.body as { outcome: string; httpStatus: number; steps: Array<{ status: string; type: string; outputPreview: string }> };
    expect(entry).toMatchObject({ outcome: "completed", httpStatus: 200, source: "endpoint", slug: "tickets-by-status" });
    expect(entry.steps.map((step) => [step.type, step.status])).toEqual([
      ["query", "ok"],
      ["transform", "ok"],
    ]);
    expect(entry.steps[1]?.outputPreview).toContain('"open":2');

    const listed = await api.manage(`/endpoints/${created.id}/executions`);
    const { data } = (await listed.json()) as { data: Array<{ id: string }> };
    expect(data.map((item) => item.id)).toContain(executionId);
  });

  it("validated intake: 422 with the step's own body when the condition fails, the array and its length otherwise", async ({ server, api }) => {
    await createEndpoint(api, validatedIntakeEndpoint);
    const refused = await api.invoke("tickets-with-status", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({}) });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ error: "status is required" });

    const accepted = await api.invoke("tickets-with-status", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "open" }) });
    expect(accepted.status).toBe(200);
    const body = (await accepted.json()) as { status: string; count: number; tickets: Array<{ title: string }> };
    expect(body.status).toBe("open");
    expect(body.count).toBe(2);
    expect(body.tickets.map((ticket) => ticket.title).sort()).toEqual(["Broken login", "Slow page"]);

    // A filter value is a literal, never an operator.
    const injected = await api.invoke("tickets-with-status", { method: "POST", body: JSON.stringify({ status: { $ne: null } }) });
    expect(injected.status).toBe(200);
    expect(((await injected.json()) as { count: number }).count).toBe(0);

    const { data } = (await (await api.manage(`/endpoints`)).json()) as { data: Array<{ id: string; slug: string }> };
    const id = data.find((endpoint) => endpoint.slug === "tickets-with-status")!.id;
    const stopped = await server.afterWork(
      async () =>
        (await (await api.manage(`/endpoints/${id}/executions?outcome=stopped`)).json()) as {
          data: Array<{ outcome: string; httpStatus: number; steps: Array<{ status: string }> }>;
        },
      (list) => list.data.length > 0,
    );
    expect(stopped.data).toHaveLength(1);
    expect(stopped.data[0]).toMatchObject({ outcome: "stopped", httpStatus: 422 });
    expect(stopped.data[0]?.steps.map((step) => step.status)).toEqual(["stopped", "skipped"]);
  });
});

describe("custom endpoints: management", () => {
  it("lists, reads, edits, disables and deletes; each change is visible to the next call", async ({ api }) => {
    const created = await createEndpoint(api, { name: "Hello", method: "GET", slug: "hello", response: { body: '{"greeting": "hello {{query.name}}"}' } });
    expect(await (await api.invoke("hello", {}, "?name=Ann")).json()).toEqual({ greeting: "hello Ann" });

    const read = await api.manage(`/endpoints/${created.id}`);
    expect(await read.json()).toMatchObject({ id: created.id, slug: "hello", auth: "public", cacheSeconds: 0, enabled: true, version: 1 });

    const edited = await api.manage(`/endpoints/${created.id}`, { method: "PATCH", body: JSON.stringify({ response: { body: '{"greeting": "hi {{query.name}}"}' } }) });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { version: number }).version).toBe(2);
    expect(await (await api.invoke("hello", {}, "?name=Ann")).json()).toEqual({ greeting: "hi Ann" });

    await api.manage(`/endpoints/${created.id}`, { method: "PATCH", body: JSON.stringify({ enabled: false }) });
    expect((await api.invoke("hello")).status).toBe(404);
    await api.manage(`/endpoints/${created.id}`, { method: "PATCH", body: JSON.stringify({ enabled: true }) });
    expect((await api.invoke("hello")).status).toBe(200);

    const deleted = await api.manage(`/endpoints/${created.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await api.invoke("hello")).status).toBe(404);
    expect((await api.manage(`/endpoints/${created.id}`)).status).toBe(404);
  });

  it("serves the same slug once per method", async ({ api }) => {
    await createEndpoint(api, { name: "Read note", method: "GET", slug: "note", response: { body: '{"via": "get"}' } });
    await createEndpoint(api, { name: "Write note", method: "POST", slug: "note", response: { status: 201, body: '{"via": "post", "text": "{{body.text}}"}' } });
    expect(await (await api.invoke("note")).json()).toEqual({ via: "get" });
    const posted = await api.invoke("note", { method: "POST", body: JSON.stringify({ text: 'say "hi"' }) });
    expect(posted.status).toBe(201);
    expect(await posted.json()).toEqual({ via: "post", text: 'say "hi"' });
    expect((await api.invoke("note", { method: "PUT", body: "{}" })).status).toBe(404);
  });

  it("caches public GET responses by query string and clears them on edit", async ({ project, api }) => {
    const created = await createEndpoint(api, {
      name: "Open tickets",
      method: "GET",
      slug: "open-count",
      cacheSeconds: 60,
      steps: [{ type: "query", name: "open", schema: "tickets", filters: "status=open", limit: 100 }],
      response: { body: '{"open": {{steps.open.length}}, "page": "{{query.page}}"}' },
    });
    await startWellInsideAMinute();
    const first = await api.invoke("open-count", {}, "?page=1");
    expect(first.headers.get("x-cache")).toBe("miss");
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    expect(await first.json()).toEqual({ open: 2, page: "1" });

    await createTestRecord(project.projectId, "tickets", { title: "New one", status: "open" });
    const second = await api.invoke("open-count", {}, "?page=1");
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(await second.json()).toEqual({ open: 2, page: "1" });
    const otherQuery = await api.invoke("open-count", {}, "?page=2");
    expect(otherQuery.headers.get("x-cache")).toBe("miss");
    expect(await otherQuery.json()).toEqual({ open: 3, page: "2" });

    await api.manage(`/endpoints/${created.id}`, { method: "PATCH", body: JSON.stringify({ name: "Open tickets (edited)" }) });
    const afterEdit = await api.invoke("open-count", {}, "?page=1");
    expect(afterEdit.headers.get("x-cache")).toBe("miss");
    expect(await afterEdit.json()).toEqual({ open: 3, page: "1" });
    // Each call counts once, also the one after the edit, whose rate limit and cache lookup started
    // from the runtime held before the edit (early-invocation-work.ts): the count was kept, the
    // lookup of the old version's entry was not.
    const remaining = [first, second, otherQuery, afterEdit].map((response) => Number(response.headers.get("x-ratelimit-remaining")));
    expect(remaining).toEqual([remaining[0], remaining[0]! - 1, remaining[0]! - 2, remaining[0]! - 3]);

    // An edit made by another instance: this process, through the service, when the suite runs against
    // an external server (scripts/test-serverless.sh), so only the generation in the shared Redis tells
    // the serving instance that its cached answer is stale.
    await createTestRecord(project.projectId, "tickets", { title: "Newer one", status: "open" });
    const stillCached = await api.invoke("open-count", {}, "?page=1");
    expect(stillCached.headers.get("x-cache")).toBe("hit");
    await updateEndpoint({ projectId: project.projectId, endpointId: created.id, patch: { name: "Open tickets (edited elsewhere)" } });
    const afterOtherEdit = await api.invoke("open-count", {}, "?page=1");
    expect(afterOtherEdit.headers.get("x-cache")).toBe("miss");
    expect(await afterOtherEdit.json()).toEqual({ open: 4, page: "1" });
  }, 60_000);

  it("runs concurrent cache misses on one key once", async ({ api }) => {
    await createEndpoint(api, {
      name: "Slow count",
      method: "GET",
      slug: "slow-count",
      cacheSeconds: 30,
      steps: [{ type: "query", name: "all", schema: "tickets", limit: 100 }],
      response: { body: '{"n": {{steps.all.length}}}' },
    });
    const responses = await Promise.all(Array.from({ length: 8 }, () => api.invoke("slow-count", {}, "?same=1")));
    const executionIds = new Set(responses.map((response) => response.headers.get("x-execution-id")).filter(Boolean));
    expect(executionIds.size).toBe(1);
    expect(new Set(await Promise.all(responses.map((response) => response.text()))).size).toBe(1);
  });

  it("test-runs an unsaved draft for real and logs it as a test run", async ({ api }) => {
    const response = await api.manage("/endpoints/test-run", {
      method: "POST",
      body: JSON.stringify({
        endpoint: {
          method: "POST",
          steps: [
            { type: "create", name: "ticket", schema: "tickets", values: { title: "{{body.title}}", status: "open", priority: "{{body.priority}}" } },
            { type: "transform", name: "shape", expression: "{id: steps.ticket.id, title: steps.ticket.title}" },
          ],
          response: { status: 201, body: "{{steps.shape}}" },
        },
        body: { title: "From a test run", priority: 5 },
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const result = (await response.json()) as {
      executionId: string;
      outcome: string;
      steps: Array<{ status: string; output: Record<string, unknown> }>;
      response: { status: number; body: { title: string } };
    };
    expect(result.outcome).toBe("completed");
    expect(result.steps[0]?.output).toMatchObject({ title: "From a test run", priority: 5, status: "open" });
    expect(result.response).toMatchObject({ status: 201, body: { title: "From a test run" } });
    const log = (await (await api.manage(`/executions/${result.executionId}`)).json()) as { source: string };
    expect(log.source).toBe("test_run");
  });

  it("exports and imports endpoints as JSON", async ({ server, api }) => {
    const exported = await api.manage("/endpoints/export");
    expect(exported.status).toBe(200);
    const document = (await exported.json()) as { format: string; endpoints: Array<Record<string, unknown>> };
    expect(document.format).toBe("flowpoint.endpoints");
    expect(document.endpoints.length).toBeGreaterThan(2);
    expect(document.endpoints[0]).not.toHaveProperty("id");

    const target = await createProjectFixture("Copy");
    await createTicketSchemas(target.projectId);
    const targetApi = projectApi(server, target, { key: await target.keyFor(["endpoints.create", "endpoints.update", "endpoints.read"]) });
    const imported = await targetApi.request("POST", "/endpoints/import", document);
    expect(imported.status, await imported.clone().text()).toBe(200);
    expect(await imported.json()).toMatchObject({ dryRun: false, created: document.endpoints.length, updated: 0, unchanged: 0, secrets: { required: [], missing: [] } });
    const again = await targetApi.request("POST", "/endpoints/import", document);
    // The same document again changes nothing: every endpoint is already as it says.
    expect(await again.json()).toMatchObject({ created: 0, updated: 0, unchanged: document.endpoints.length, secrets: { required: [], missing: [] } });
    const copied = await targetApi.invoke("tickets-by-status");
    expect(copied.status).toBe(200);
    expect(await copied.json()).toMatchObject({ open: 0, closed: 0 });
  });
});
