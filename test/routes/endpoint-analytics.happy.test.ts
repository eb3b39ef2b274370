import { describe, expect } from "vitest";
import { flushEndpointStats } from "@/lib/endpoint-analytics/flush-endpoint-stats";
import type { EndpointAnalytics } from "@/lib/endpoint-analytics/get-endpoint-analytics";
import { routeTest } from "@/test/support/route-test";

/**
 * Endpoint analytics over real HTTP: calls answered from the cache, refused by the rate limit,
 * refused for missing credentials or stopped by a condition are each counted once, by status
 * class, and read back through `GET /endpoints/:id/analytics` after a flush (what the 10-second
 * timer does in a running server).
 */
/**
 * One call, tried again once if the connection was reset before an answer: on a starved machine
 * the harness may close a kept-alive socket as the next request arrives on it. The server never
 * read that request, so it counted nothing, and the counts below stay exact.
 */
async function invokeRetryingReset(call: () => Promise<Response>, label: string): Promise<Response> {
  try {
    return await call();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
    try {
      return await call();
    } catch (again) {
      throw new Error(`${label} failed twice`, { cause: again });
    }
  }
}

describe("GET /endpoints/:endpointId/analytics", () => {
  routeTest("counts every answer of an endpoint once: cache hits, 429s, 4xx, a flow's 5xx and successes", async ({ ownerApi, project }) => {
    const cached = await ownerApi.call<{ id: string }>("POST", "/endpoints", {
      name: "Cached",
      method: "GET",
      slug: "cached",
      cacheSeconds: 60,
      response: { body: '{"ok": true}' },
    });
    const keyed = await ownerApi.call<{ id: string }>("POST", "/endpoints", { name: "Keyed", method: "GET", slug: "keyed", auth: "api_key", response: { body: '{"ok": true}' } });
    expect([cached.status, keyed.status]).toEqual([201, 201]);

    // The public limit is 60 a minute per caller (a sliding window: a run across a minute boundary
    // may see a few more pass): the first call runs the flow, the rest come from the cache until one is refused.
    const statuses: string[] = [];
    while (!statuses.at(-1)?.startsWith("429") && statuses.length < 150) {
      const response = await invokeRetryingReset(() => ownerApi.invoke("cached"), `call ${statuses.length + 1}`);
      statuses.push(`${response.status} ${response.headers.get("x-cache") ?? "-"}`);
      await response.arrayBuffer();
    }
    const hits = statuses.filter((s) => s === "200 hit").length;
    expect(statuses.filter((s) => s === "200 miss")).toHaveLength(1);
    expect(hits).toBeGreaterThanOrEqual(59);
    expect(hits).toBe(statuses.length - 2);
    expect(statuses.at(-1)).toMatch(/^429/);

    const key = await project.keyFor(["endpoints.invoke"]);
    expect((await ownerApi.invoke("keyed")).status).toBe(401);
    expect((await ownerApi.invoke("keyed", { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    // A flow's own answers: a condition's stop with a 503, a redirect, and its success.
    const guarded = await ownerApi.call<{ id: string }>("POST", "/endpoints", {
      name: "Guarded",
      method: "POST",
      slug: "guarded",
      steps: [{ type: "condition", checks: [{ left: "{{body.ok}}", operator: "exists" }], stopStatus: 503, stopBody: '{"error": "not ready"}' }],
      response: { status: 200, body: '{"ok": true}' },
    });
    expect(guarded.status).toBe(201);
    const post = (body: unknown) => ownerApi.invoke("guarded", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await post({})).status).toBe(503);
    expect((await post({ ok: 1 })).status).toBe(200);
    expect((await post({ ok: 1 })).status).toBe(200);

    await flushEndpointStats();

    const cachedStats = await ownerApi.call<EndpointAnalytics>("GET", `/endpoints/${cached.body.id}/analytics?range=1h`);
    expect(cachedStats.status).toBe(200);
    expect(cachedStats.body.totals).toMatchObject({ calls: statuses.length, status2xx: statuses.length - 1, status4xx: 1, status5xx: 0, rateLimited: 1, cacheHits: hits });
    expect(cachedStats.body.totals.cacheHitRatio).toBeCloseTo(hits / statuses.length);
    expect(cachedStats.body.totals.p50Ms).toBeGreaterThan(0);
    expect(cachedStats.body.points).toHaveLength(60);
    expect(cachedStats.body.points.reduce((sum, point) => sum + point.calls, 0)).toBe(statuses.length);

    const keyedStats = await ownerApi.call<EndpointAnalytics>("GET", `/endpoints/${keyed.body.id}/analytics?range=7d`);
    expect(keyedStats.body.totals).toMatchObject({ calls: 2, status2xx: 1, status4xx: 1, rateLimited: 0, cacheHits: 0 });
    expect(keyedStats.body.points).toHaveLength(168);

    const guardedStats = await ownerApi.call<EndpointAnalytics>("GET", `/endpoints/${guarded.body.id}/analytics?range=1h`);
    expect(guardedStats.body.totals).toMatchObject({ calls: 3, status2xx: 2, status4xx: 0, status5xx: 1, cacheHits: 0 });
    expect(guardedStats.body.totals.cacheHitRatio).toBe(0);

    // The default range is the last day, per 15 minutes.
    const day = await ownerApi.call<EndpointAnalytics>("GET", `/endpoints/${keyed.body.id}/analytics`);
    expect(day.body).toMatchObject({ range: "24h", stepMinutes: 15 });
    expect(day.body.totals.calls).toBe(2);
  });

  routeTest("refuses an unknown range with 400", async ({ ownerApi }) => {
    const created = await ownerApi.call<{ id: string }>("POST", "/endpoints", { name: "Ranged", method: "GET", slug: "ranged", response: { body: "{}" } });
    const answer = await ownerApi.call("GET", `/endpoints/${created.body.id}/analytics?range=30d`);
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([{ path: "range", message: "expected 1h, 24h or 7d" }]);
  });
});
