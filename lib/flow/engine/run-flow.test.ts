import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { validateFlow, type FlowStepInput } from "@/lib/flow/flow-definition";
import { startLocalTestServer, type LocalTestServer } from "@/lib/outbound/local-test-server";
import { safeFetch } from "@/lib/outbound/safe-fetch";
import type { FlowServices } from "./flow-services";
import { renderTemplate } from "./render-template";
import { runFlow } from "./run-flow";

let server: LocalTestServer;
const hangingResponses = new Set<http.ServerResponse>();
let previousAllowedHosts: string | undefined;

beforeAll(async () => {
  previousAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;
  process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1";
  resetConfigForTests();
  server = await startLocalTestServer((request, response) => {
    if (request.url === "/hang") {
      hangingResponses.add(response);
      return;
    }
    if (request.url?.startsWith("/slow")) {
      response.setHeader("content-type", "application/json");
      setTimeout(() => response.end(JSON.stringify({ slow: true })), 150);
      return;
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ path: request.url }));
  });
});

afterAll(async () => {
  for (const response of hangingResponses) response.destroy();
  await server.close();
  if (previousAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
  else process.env.OUTBOUND_ALLOWED_HOSTS = previousAllowedHosts;
  resetConfigForTests();
});

const services: FlowServices = { fetch: safeFetch };
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

describe("runFlow: a completed run", () => {
  it("runs steps top to bottom, stores named outputs and returns the final context", async () => {
    const result = await runFlow({
      steps: [
        { type: "transform", name: "items", expression: "body.items[?price > `10`]" },
        { type: "condition", checks: [{ left: "{{steps.items.length}}", operator: "greater_than", right: "0" }] },
        { type: "transform", name: "summary", expression: "{count: length(steps.items), names: steps.items[].name}" },
      ],
      context: {
        body: {
          items: [
            { name: "a", price: 5 },
            { name: "b", price: 20 },
            { name: "c", price: 30 },
          ],
        },
        query: { page: "1" },
      },
    });
    expect(result.outcome).toBe("completed");
    expect(result.stop).toBeNull();
    expect(result.error).toBeNull();
    expect(result.steps.map(({ index, name, type, status, output, error }) => ({ index, name, type, status, output, error }))).toEqual([
      {
        index: 0,
        name: "items",
        type: "transform",
        status: "ok",
        output: [
          { name: "b", price: 20 },
          { name: "c", price: 30 },
        ],
        error: null,
      },
      { index: 1, name: null, type: "condition", status: "ok", output: null, error: null },
      { index: 2, name: "summary", type: "transform", status: "ok", output: { count: 2, names: ["b", "c"] }, error: null },
    ]);
    for (const step of result.steps) expect(step.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.context.steps).toEqual({ items: result.steps[0]?.output, summary: { count: 2, names: ["b", "c"] } });
    expect(renderTemplate("{{steps.summary.count}} of {{body.items.length}} on page {{query.page}}", result.context)).toBe("2 of 3 on page 1");
  });

  it("uses the caller's values by reference and makes trigger the body on endpoints", async () => {
    const body = { a: 1 };
    const result = await runFlow({ steps: [{ type: "transform", name: "t", expression: "trigger.a" }], context: { body } });
    expect(result.context.body).toBe(body);
    expect(result.context.trigger).toBe(body);
    expect(result.context.steps.t).toBe(1);
  });

  it("automations pass their own trigger payload", async () => {
    const result = await runFlow({
      steps: [{ type: "transform", name: "t", expression: "[trigger.record.id, body]" }],
      context: { trigger: { record: { id: "rec_1" } } },
    });
    expect(result.context.steps.t).toEqual(["rec_1", {}]);
  });

  it("a step without an output name is logged but not stored", async () => {
    const result = await runFlow({ steps: [{ type: "transform", expression: "`42`" }] });
    expect(result.steps[0]).toMatchObject({ status: "ok", output: 42 });
    expect(result.context.steps).toEqual({});
  });

  it("an empty flow completes", async () => {
    const result = await runFlow({ steps: [] });
    expect(result).toMatchObject({ outcome: "completed", steps: [], stop: null, error: null });
  });

  it("accepts a validateFlow result and stored JSON alike", async () => {
    const stored: FlowStepInput[] = [{ type: "transform", name: "t", expression: "`1`" }];
    const validated = validateFlow(stored);
    expect(validated.ok).toBe(true);
    if (!validated.ok) return;
    expect((await runFlow({ steps: validated.steps })).context.steps.t).toBe(1);
    expect((await runFlow({ steps: stored })).context.steps.t).toBe(1);
    expect((await runFlow({ steps: stored })).context.steps.t).toBe(1);
  });

  it("refuses an invalid flow with a 422 naming the step", async () => {
    const error = await runFlow({ steps: [{ type: "transform", expression: "a[" }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).issues?.[0]?.path).toBe("steps.0.expression");
  });
});

describe("runFlow: skipped, failed and stopped steps", () => {
  it("a disabled step is skipped and logged as such; its output name stays unset", async () => {
    const result = await runFlow({
      steps: [
        { type: "transform", name: "off", expression: "`1`", enabled: false },
        { type: "transform", name: "next", expression: "steps.off" },
      ],
    });
    expect(result.outcome).toBe("completed");
    expect(result.steps[0]).toEqual({ index: 0, name: "off", type: "transform", status: "skipped", durationMs: 0, output: null, error: null });
    expect(result.steps[1]).toMatchObject({ status: "ok", output: null });
    expect(Object.hasOwn(result.context.steps, "off")).toBe(false);
  });

  it("a failure stops the run as failed and skips the rest", async () => {
    const result = await runFlow({
      steps: [
        { type: "transform", name: "a", expression: "`1`" },
        { type: "transform", name: "bad", expression: "abs(body.text)" },
        { type: "transform", name: "c", expression: "`3`" },
      ],
      context: { body: { text: "not a number" } },
    });
    expect(result.outcome).toBe("failed");
    expect(result.steps.map((step) => step.status)).toEqual(["ok", "failed", "skipped"]);
    expect(result.steps[1]?.error).toMatch(/^transform failed: /);
    expect(result.error).toEqual({ index: 1, message: result.steps[1]?.error });
    expect(result.context.steps).toEqual({ a: 1 });
  });

  it("with continue on error the run goes on and the error is in the log", async () => {
    const result = await runFlow({
      steps: [
        { type: "transform", name: "bad", expression: "abs(body.text)", continueOnError: true },
        { type: "transform", name: "after", expression: "`2`" },
      ],
      context: { body: { text: "x" } },
    });
    expect(result.outcome).toBe("completed");
    expect(result.error).toBeNull();
    expect(result.steps[0]).toMatchObject({ status: "failed", output: null });
    expect(result.steps[0]?.error).toMatch(/transform failed/);
    expect(result.context.steps).toEqual({ after: 2 });
  });

  it("a condition that fails stops the run cleanly and skips the remaining steps", async () => {
    const result = await runFlow({
      steps: [
        { type: "transform", name: "a", expression: "`1`" },
        { type: "condition", checks: [{ left: "{{body.status}}", operator: "exists" }], stopStatus: 400, stopBody: '{"error":"status is required"}' },
        { type: "transform", name: "b", expression: "`2`" },
        { type: "transform", name: "c", expression: "`3`", enabled: false },
      ],
      context: { body: {} },
    });
    expect(result.outcome).toBe("stopped");
    expect(result.stop).toEqual({ status: 400, body: '{"error":"status is required"}' });
    expect(result.error).toBeNull();
    expect(result.steps.map((step) => step.status)).toEqual(["ok", "stopped", "skipped", "skipped"]);
    expect(result.steps[1]?.error).toBe("checks not met: the flow answered 400");
    expect(result.context.steps).toEqual({ a: 1 });
  });

  it("the default stop is 422 condition not met", async () => {
    const result = await runFlow({ steps: [{ type: "condition", checks: [{ left: "{{body.status}}", operator: "exists" }] }] });
    expect(result.stop).toEqual({ status: 422, body: '{"error":"condition not met"}' });
  });

  it("a step whose service the host does not offer fails clearly", async () => {
    const result = await runFlow({ steps: [{ type: "query", schema: "tickets" }] });
    expect(result.outcome).toBe("failed");
    expect(result.steps[0]?.error).toBe("the records service is not available where this flow runs");
  });

  it("an unexpected error does not leak its message into the log", async () => {
    const leaky: FlowServices = {
      fetch: () => Promise.reject(new Error("connect ECONNREFUSED postgres://admin:hunter2@10.0.0.5/db")),
    };
    const result = await runFlow({ steps: [{ type: "http", url: url("/x") }], services: leaky });
    expect(result.steps[0]?.error).toBe("internal error in the http step");
    expect(JSON.stringify(result)).not.toContain("hunter2");
  });

  it("at most 20 steps", async () => {
    const steps = Array.from({ length: 21 }, () => ({ type: "transform" as const, expression: "`1`" }));
    const error = await runFlow({ steps }).catch((caught: unknown) => caught);
    expect((error as AppError).issues).toEqual([{ path: "steps", message: "a flow has at most 20 steps" }]);
  });
});

describe("runFlow: the time budget", () => {
  it("a step waiting on its signal is cut off when the run budget is used up, and the run fails", async () => {
    const started = performance.now();
    const result = await runFlow({
      steps: [
        { type: "http", name: "first", url: url("/slow") },
        { type: "http", name: "stuck", url: url("/hang"), continueOnError: true },
        { type: "transform", name: "never", expression: "`1`" },
      ],
      services,
      budgetMs: 400,
    });
    const elapsed = performance.now() - started;
    expect(result.outcome).toBe("failed");
    expect(result.steps.map((step) => step.status)).toEqual(["ok", "failed", "skipped"]);
    expect(result.steps[0]?.output).toEqual({ status: 200, ok: true, body: { slow: true } });
    // continue on error does not help: the run has no time left.
    expect(result.steps[1]?.error).toBe("run time budget of 400 ms exhausted");
    expect(result.error).toEqual({ index: 1, message: "run time budget of 400 ms exhausted" });
    // The stuck step got only what was left after the first one (about 250 ms), not 10 s.
    expect(result.steps[1]?.durationMs).toBeLessThan(400);
    expect(elapsed).toBeLessThan(5_000);
  });

  it("a service that ignores its signal is still cut off by the engine", async () => {
    const ignoresSignal: FlowServices = { fetch: (target, init) => safeFetch(target, { ...init, signal: undefined }) };
    const result = await runFlow({ steps: [{ type: "http", url: url("/hang") }], services: ignoresSignal, budgetMs: 200 });
    expect(result.outcome).toBe("failed");
    expect(result.steps[0]?.error).toBe("run time budget of 200 ms exhausted");
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it("a run whose budget is already gone fails the next step without running it", async () => {
    const result = await runFlow({
      steps: [
        { type: "http", name: "slow", url: url("/slow") },
        { type: "transform", name: "late", expression: "`1`" },
      ],
      services: { fetch: (target, init) => safeFetch(target, { ...init, signal: undefined }) },
      budgetMs: 100,
    });
    expect(result.steps.map((step) => step.status)).toEqual(["failed", "skipped"]);
    expect(result.steps[0]?.error).toBe("run time budget of 100 ms exhausted");
  });

  it("the caller's signal ends the run", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runFlow({ steps: [{ type: "http", url: url("/hang") }], services, signal: controller.signal });
    expect(result.outcome).toBe("failed");
    expect(result.steps[0]?.error).toBe("run was cancelled");
  });
});
