import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createSchema } from "@/lib/schemas/create-schema";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

/**
 * Races of the fault table (issue 9, item 10): parallel writers of one unique value, through the
 * records API and through a flow's create step, and a stampede of misses on a cold cached endpoint.
 * The record store's unique index decides, never a read-then-write in our code.
 */
let server: RouteServer;
let fixture: ProjectFixture;
let key: string;
let api: ProjectApi;

beforeAll(async () => {
  // The stampede comes from 200 callers behind a proxy, so no caller meets its own rate limit.
  process.env.TRUSTED_PROXY = "x-real-ip";
  resetConfigForTests();
  server = await startRouteServer();
  fixture = await createProjectFixture("Races");
  key = await fixture.keyFor(["records.read", "records.create", "endpoints.read", "endpoints.create", "endpoints.invoke"]);
  api = projectApi(server, fixture, { key });
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  await createSchema({
    projectId: fixture.projectId,
    store,
    definition: { name: "coupons", kind: "collection", fields: [{ name: "code", type: "string", required: true, unique: true }] },
  });
});

afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

async function couponsWithCode(code: string): Promise<number> {
  const response = await api.request("GET", `/records/coupons?filter[code]=${encodeURIComponent(code)}`);
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

describe("20 parallel creates of one unique value", () => {
  it("through the records API: one 201, nineteen 409 naming the field, one record", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.request("POST", "/records/coupons", { code: "API-RACE" })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const loser of answers.filter((answer) => answer.status === 409)) expect(((await loser.json()) as { field: string }).field).toBe("code");
    expect(await couponsWithCode("API-RACE")).toBe(1);
  });

  it("through a flow's create step: one 201, nineteen failed runs whose logs name the conflict, one record", async () => {
    const created = await api.request("POST", "/endpoints", {
      name: "Claim coupon",
      method: "POST",
      slug: "claim",
      auth: "api_key",
      steps: [{ type: "create", name: "coupon", schema: "coupons", values: { code: "{{body.code}}" } }],
      response: { status: 201, body: "{{steps.coupon}}" },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.url}/api/projects/${fixture.projectId}/fn/claim`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ code: "FLOW-RACE" }),
        }),
      ),
    );
    // A failed step answers 500 with the execution id (docs/SPEC.md "Errors"); the log says why.
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(19).fill(500)]);
    expect(await couponsWithCode("FLOW-RACE")).toBe(1);
    await server.drain();
    const loser = answers.find((answer) => answer.status === 500)!;
    const { executionId } = (await loser.json()) as { executionId: string };
    const log = (await (await api.request("GET", `/executions/${executionId}`)).json()) as { outcome: string; steps: Array<{ status: string; error?: string }> };
    expect(log.outcome).toBe("failed");
    expect(log.steps[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/code/) as unknown });
  });
});

describe("200 concurrent misses on a cold cached endpoint", () => {
  it("run the flow once and answer every caller alike", async () => {
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
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        fetch(`${server.url}/api/projects/${fixture.projectId}/fn/cached-coupons?cold=1`, { headers: { "x-real-ip": `203.0.113.${index % 250}` } }),
      ),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
    // Only the caller whose request ran the flow is told its execution id.
    expect(answers.map((answer) => answer.headers.get("x-execution-id")).filter(Boolean)).toHaveLength(1);
    expect(new Set(await Promise.all(answers.map((answer) => answer.text())))).toEqual(new Set(['{"count": 2}']));
    await server.drain();
    const executions = (await (await api.request("GET", `/endpoints/${((await created.json()) as { id: string }).id}/executions`)).json()) as { data: unknown[] };
    expect(executions.data).toHaveLength(1);
  });
});
