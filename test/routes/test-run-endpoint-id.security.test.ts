import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";

/**
 * A test run is logged under the saved endpoint it edits (`endpointId`). Only an endpoint of the
 * same project may be named: another workspace's endpoint id is not_found, and nothing runs or is
 * logged (found by the tenant-isolation e2e, security issue 9 item 10).
 */
let server: RouteServer;
let mine: ProjectFixture;
let theirs: ProjectFixture;
let mineKey: string;
let theirsKey: string;
let theirEndpointId: string;

beforeAll(async () => {
  server = await startRouteServer();
  mine = await createProjectFixture("Mine");
  theirs = await createProjectFixture("Theirs");
  mineKey = await mine.keyFor(["endpoints.create", "endpoints.update", "endpoints.read"]);
  theirsKey = await theirs.keyFor(["endpoints.create", "endpoints.read"]);
  const created = await manage(theirs.projectId, theirsKey, "/endpoints", { name: "Theirs", method: "GET", slug: "theirs", steps: [], response: { body: "{}" } });
  expect(created.status).toBe(201);
  theirEndpointId = ((await created.json()) as { id: string }).id;
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function manage(projectId: string, key: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/api/projects/${projectId}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("test runs name only the project's own endpoints", () => {
  it("refuses another project's endpoint id with 404 and logs nothing", async () => {
    const run = await manage(mine.projectId, mineKey, "/endpoints/test-run", { endpoint: { steps: [], response: { body: "{}" } }, endpointId: theirEndpointId });
    expect(run.status).toBe(404);
    expect(await run.json()).toMatchObject({ error: "endpoint not found" });
    await server.drain();
    const theirLog = await manage(theirs.projectId, theirsKey, `/endpoints/${theirEndpointId}/executions`);
    expect(((await theirLog.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("still logs a test run under the project's own endpoint", async () => {
    const created = await manage(mine.projectId, mineKey, "/endpoints", { name: "Mine", method: "GET", slug: "mine", steps: [], response: { body: "{}" } });
    const endpointId = ((await created.json()) as { id: string }).id;
    const run = await manage(mine.projectId, mineKey, "/endpoints/test-run", { endpoint: { steps: [], response: { body: "{}" } }, endpointId });
    expect(run.status).toBe(200);
    await server.drain();
    const log = await manage(mine.projectId, mineKey, `/endpoints/${endpointId}/executions`);
    expect(((await log.json()) as { data: unknown[] }).data).toHaveLength(1);
  });
});
