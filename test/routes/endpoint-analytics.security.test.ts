import { describe, expect } from "vitest";
import { flushEndpointStats } from "@/lib/endpoint-analytics/flush-endpoint-stats";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * An endpoint's analytics are read with endpoints.read, only through its own project: another
 * project's key, or this project's path with another project's endpoint id, finds nothing.
 */
describe("endpoint analytics access", () => {
  routeTest("needs endpoints.read, and answers 404 across projects", async ({ server, project, ownerApi }) => {
    const created = await ownerApi.call<{ id: string }>("POST", "/endpoints", { name: "Watched", method: "GET", slug: "watched", response: { body: "{}" } });
    expect((await ownerApi.invoke("watched")).status).toBe(200);
    await flushEndpointStats();
    const path = `/endpoints/${created.body.id}/analytics?range=1h`;

    const reader = projectApi(server, project, { key: await project.keyFor(["endpoints.read"]) });
    const readerAnswer = await reader.call<{ totals: { calls: number } }>("GET", path);
    expect(readerAnswer.status).toBe(200);
    expect(readerAnswer.body.totals.calls).toBe(1);

    const invokeOnly = projectApi(server, project, { key: await project.keyFor(["endpoints.invoke", "records.read"]) });
    expect((await invokeOnly.call("GET", path)).status).toBe(403);
    expect((await projectApi(server, project, "anonymous").call("GET", path)).status).toBe(401);

    const other = await createProjectFixture("Other analytics");
    const otherKey = await other.keyFor(["endpoints.read"]);
    // Another project's key on this project's path.
    expect((await projectApi(server, project, { key: otherKey }).call("GET", path)).status).toBe(404);
    // This endpoint's id under the other project's path, with that project's own key.
    const otherAnswer = await projectApi(server, other, { key: otherKey }).call("GET", path);
    expect(otherAnswer.status).toBe(404);
    expect(JSON.stringify(otherAnswer.body)).not.toContain("calls");
  });
});
