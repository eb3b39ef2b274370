import { describe, expect } from "vitest";
import { createSchema } from "@/lib/schemas/create-schema";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { setProcessEnv } from "@/test/support/process-env";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Races of the fault table (issue 9, item 10): parallel writers of one unique value, through the
 * records API and through a flow's create step, and a stampede of misses on a cold cached endpoint.
 * The record store's unique index decides, never a read-then-write in our code.
 */
const it = routeTest
  // The stampede comes from 200 callers behind a proxy, so no caller meets its own rate limit.
  .extend("trustedProxy", { scope: "file" }, ({}, { onCleanup }) => onCleanup(setProcessEnv({ TRUSTED_PROXY: "x-real-ip" })))
  // Only a dependency: the route server starts once the proxy header is trusted.
  .extend("server", { scope: "file" }, ({ trustedProxy: _trustedProxy, server }) => server)
  /** The client with a key for records and endpoints, on a project with a `coupons` schema whose code is unique. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    const store = await getProjectRecordStore({ projectId: project.projectId });
    await createSchema({
      projectId: project.projectId,
      store,
      definition: { name: "coupons", kind: "collection", fields: [{ name: "code", type: "string", required: true, unique: true }] },
    });
    return ownerApi.with({ credentials: { key: await project.keyFor(["records.read", "records.create", "endpoints.read", "endpoints.create", "endpoints.invoke"]) } });
  });

async function couponsWithCode(api: ProjectApi, code: string): Promise<number> {
  const response = await api.request("GET", `/records/coupons?filter[code]=${encodeURIComponent(code)}`);
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

describe("20 parallel creates of one unique value", () => {
  it("through the records API: one 201, nineteen 409 naming the field, one record", async ({ api }) => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.request("POST", "/records/coupons", { code: "API-RACE" })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const loser of answers.filter((answer) => answer.status === 409)) expect(((await loser.json()) as { field: string }).field).toBe("code");
    expect(await couponsWithCode(api, "API-RACE")).toBe(1);
  });

  it("through a flow's create step: one 201, nineteen failed runs whose logs name the conflict, one record", async ({ server, api }) => {
    const created = await api.request("POST", "/endpoints", {
      name: "Claim coupon",
      method: "POST",
      slug: "claim",
      auth: "api_key",
      steps: [{ type: "create", name: "coupon", schema: "coupons", values: { code: "{{body.code}}" } }],
      response: { status: 201, body: "{{steps.coupon}}" },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.request("POST", "/fn/claim", { code: "FLOW-RACE" })));
    // A failed step answers 500 with the execution id (docs/SPEC.md "Errors"); the log says why.
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(19).fill(500)]);
    expect(await couponsWithCode(api, "FLOW-RACE")).toBe(1);
    await server.drain();
    const loser = answers.find((answer) => answer.status === 500)!;
    const { executionId } = (await loser.json()) as { executionId: string };
    const log = (await (await api.request("GET", `/executions/${executionId}`)).json()) as { outcome: string; steps: Array<{ status: string; error?: string }> };
    expect(log.outcome).toBe("failed");
    expect(log.steps[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/code/) as unknown });
  });
});

describe("200 concurrent misses on a cold cached endpoint", () => {
  it("run the flow once and answer every caller alike", async ({ server, api }) => {
    const created = await api.request("POST", "/endpoints", {
      name: "Cached coupons",
      method: "GET",
      slug: "cached-coupons",
      auth: "public",
      cacheSeconds: 60,
      steps: [{ type: "query", name: "coupons", schema: "coupons", limit: 100 }],
      response: { body: '{"count": {{steps.coupons.length}}}' },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => api.invoke("cached-coupons", { headers: { "x-real-ip": `203.0.113.${index % 250}` } }, "?cold=1")));
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
    // Only the caller whose request ran the flow is told its execution id.
    expect(answers.map((answer) => answer.headers.get("x-execution-id")).filter(Boolean)).toHaveLength(1);
    expect(new Set(await Promise.all(answers.map((answer) => answer.text())))).toEqual(new Set(['{"count": 2}']));
    await server.drain();
    const executions = (await (await api.request("GET", `/endpoints/${((await created.json()) as { id: string }).id}/executions`)).json()) as { data: unknown[] };
    expect(executions.data).toHaveLength(1);
  });
});
