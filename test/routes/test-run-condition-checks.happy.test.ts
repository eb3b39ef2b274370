import { describe, expect } from "vitest";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/** The client with a key that may read, create and edit endpoints. */
const it = routeTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) =>
  ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.read", "endpoints.create", "endpoints.update"]) } }),
);

interface TestRunAnswer {
  outcome: string;
  steps: Array<{ index: number; status: string; checks?: Array<{ left: { missing: boolean; text: string }; right: { missing: boolean; text: string } | null; passed: boolean }> }>;
  response: { status: number };
}

async function testRun(api: ProjectApi, endpoint: unknown, body: unknown, query = {}): Promise<TestRunAnswer> {
  const response = await api.manage("/endpoints/test-run", { method: "POST", body: JSON.stringify({ endpoint, body, query }) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as TestRunAnswer;
}

const gate = {
  method: "POST",
  steps: [
    { type: "transform", name: "size", expression: "length(body.items)" },
    {
      type: "condition",
      checks: [
        { left: "{{steps.size}}", operator: "greater_than", right: "1" },
        { left: "{{body.status}}", operator: "equals", right: "{{query.want}}" },
        { left: "{{body.missing}}", operator: "not_exists" },
      ],
      combinator: "all",
    },
    { type: "condition", checks: [{ left: "{{steps.later}}", operator: "exists" }] },
    { type: "transform", name: "later", expression: "`1`" },
  ],
  response: { status: 200, body: "{{steps.size}}" },
};

describe("test runs: how each condition check was decided", () => {
  it("reports each check's resolved operands (typed JSON) and verdict, over the context that condition saw", async ({ api }) => {
    const result = await testRun(api, gate, { items: [1, 2, 3], status: "open" }, { want: "open" });
    expect(result.outcome).toBe("stopped");
    expect(result.steps[1]?.checks).toEqual([
      { left: { missing: false, text: "3" }, right: { missing: false, text: "1" }, passed: true },
      { left: { missing: false, text: '"open"' }, right: { missing: false, text: '"open"' }, passed: true },
      { left: { missing: true, text: "{{body.missing}}" }, right: null, passed: true },
    ]);
    // A later step's output is not there yet when this condition runs, even though the name is known.
    expect(result.steps[2]).toMatchObject({ status: "stopped", checks: [{ left: { missing: true, text: "{{steps.later}}" }, right: null, passed: false }] });
    expect(result.steps[0]).not.toHaveProperty("checks");
    expect(result.steps[3]).toMatchObject({ status: "skipped" });
    expect(result.steps[3]).not.toHaveProperty("checks");
  });

  it("reports the failing check when a condition stops the run", async ({ api }) => {
    const result = await testRun(api, gate, { items: [1], status: "closed" }, { want: "open" });
    expect(result.response.status).toBe(422);
    expect(result.steps[1]).toMatchObject({ status: "stopped" });
    expect(result.steps[1]?.checks?.map((check) => check.passed)).toEqual([false, false, true]);
    expect(result.steps[1]?.checks?.[1]).toEqual({ left: { missing: false, text: '"closed"' }, right: { missing: false, text: '"open"' }, passed: false });
    expect(result.steps[2]).not.toHaveProperty("checks");
  });

  it("keeps the checks out of the saved endpoint's invocation answer", async ({ api }) => {
    const saved = await api.manage("/endpoints", { method: "POST", body: JSON.stringify({ ...gate, name: "Gate", slug: "gate", steps: gate.steps.slice(0, 2) }) });
    expect(saved.status, await saved.clone().text()).toBe(201);
    const answer = await api.invoke(
      "gate",
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ items: [1, 2], status: "open" }) },
      "?want=open",
    );
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("2");
  });
});
