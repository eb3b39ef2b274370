import { describe, expect } from "vitest";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * A test run is logged under the saved endpoint it edits (`endpointId`). Only an endpoint of the
 * same project may be named: another workspace's endpoint id is not_found, and nothing runs or is
 * logged (found by the tenant-isolation e2e, security issue 9 item 10).
 */
const it = routeTest
  /** This project's client with a key that may create, edit and read endpoints. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) =>
    ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.create", "endpoints.update", "endpoints.read"]) } }),
  )
  /** Another project with an endpoint of its own, and its client. */
  .extend("theirs", { scope: "file" }, async ({ server }) => {
    const fixture = await createProjectFixture("Theirs");
    const api = projectApi(server, fixture, { key: await fixture.keyFor(["endpoints.create", "endpoints.read"]) });
    const created = await api.request("POST", "/endpoints", { name: "Theirs", method: "GET", slug: "theirs", steps: [], response: { body: "{}" } });
    expect(created.status).toBe(201);
    return { api, endpointId: ((await created.json()) as { id: string }).id };
  });

describe("test runs name only the project's own endpoints", () => {
  it("refuses another project's endpoint id with 404 and logs nothing", async ({ server, api, theirs }) => {
    const run = await api.request("POST", "/endpoints/test-run", { endpoint: { steps: [], response: { body: "{}" } }, endpointId: theirs.endpointId });
    expect(run.status).toBe(404);
    expect(await run.json()).toMatchObject({ error: "endpoint not found" });
    await server.drain();
    const theirLog = await theirs.api.request("GET", `/endpoints/${theirs.endpointId}/executions`);
    expect(((await theirLog.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("still logs a test run under the project's own endpoint", async ({ server, api }) => {
    const created = await api.request("POST", "/endpoints", { name: "Mine", method: "GET", slug: "mine", steps: [], response: { body: "{}" } });
    const endpointId = ((await created.json()) as { id: string }).id;
    const run = await api.request("POST", "/endpoints/test-run", { endpoint: { steps: [], response: { body: "{}" } }, endpointId });
    expect(run.status).toBe(200);
    await server.drain();
    const log = await api.request("GET", `/endpoints/${endpointId}/executions`);
    expect(((await log.json()) as { data: unknown[] }).data).toHaveLength(1);
  });
});
