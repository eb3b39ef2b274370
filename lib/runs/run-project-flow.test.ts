import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { parseFlowOrThrow } from "@/lib/flow/flow-definition";
import { getExecutionOrThrow } from "@/lib/flow/execution-log/get-execution-or-throw";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { closeAllRecordStores, getRecordStore } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { INVALID_FLOW_ERROR, runProjectFlow } from "./run-project-flow";

let store: RecordStore;
let project: ProjectRow;

beforeAll(() => {
  const projectId = newId("project");
  store = getRecordStore({ projectId, kind: "local" });
  const now = new Date();
  project = {
    id: projectId,
    workspaceId: newId("workspace"),
    name: "Runs",
    slug: "runs",
    databaseKind: "local",
    databaseUrlEncrypted: null,
    databaseUrlHint: null,
    mailSettingsEncrypted: null,
    logRetentionDays: 30,
    openapiPublic: false,
    createdAt: now,
    updatedAt: now,
  };
});
afterAll(closeAllRecordStores);

const steps = parseFlowOrThrow([{ type: "transform", name: "out", expression: "{value: trigger.n, password: 'p'}" }]);

describe("runProjectFlow", () => {
  it("in await mode stores the log before it resolves, with the caller's status", async () => {
    const tasks: Array<Promise<unknown>> = [];
    const result = await runProjectFlow({
      project,
      schemas: [],
      store,
      steps,
      context: { body: { n: 1 }, query: { q: "x" }, user: null },
      source: { type: "test_run", endpointId: null },
      request: { query: { q: "x" }, body: { n: 1 } },
      waitUntil: (task) => tasks.push(task),
      log: "await",
      answer: (run, executionId) => ({ httpStatus: 201, error: null, seen: { outcome: run?.outcome, executionId } }),
    });
    expect(tasks).toHaveLength(0);
    expect(result.run?.steps[0]?.output).toEqual({ value: 1, password: "p" });
    expect(result.answer.seen).toEqual({ outcome: "completed", executionId: result.executionId });
    expect(await getExecutionOrThrow({ store, executionId: result.executionId })).toMatchObject({
      source: "test_run",
      outcome: "completed",
      httpStatus: 201,
      error: null,
      trigger: null,
      attempt: null,
      request: { query: { q: "x" }, body: '{"n":1}' },
    });
  });

  it("logs the end user's id beside the request (a replay acts as them again), and no user for other calls", async () => {
    const run = (user: Record<string, unknown> | null) =>
      runProjectFlow({
        project,
        schemas: [],
        store,
        steps,
        context: { body: { n: 3 }, query: {}, user },
        source: { type: "endpoint", endpointId: "ep_user", method: "GET", slug: "me" },
        request: { query: {}, body: { n: 3 } },
        waitUntil: () => {},
        log: "await",
      });
    const asUser = await run({ id: "usr_7", email: "ada@example.com", password: "never logged" });
    const entry = await getExecutionOrThrow({ store, executionId: asUser.executionId });
    expect(entry.request).toEqual({ query: {}, body: '{"n":3}', userId: "usr_7" });
    const anonymous = await run(null);
    expect((await getExecutionOrThrow({ store, executionId: anonymous.executionId })).request).toEqual({ query: {}, body: '{"n":3}' });
  });

  it("in after mode hands the log write to waitUntil, under the given execution id", async () => {
    const tasks: Array<Promise<unknown>> = [];
    const executionId = newId("execution");
    const result = await runProjectFlow({
      project,
      schemas: [],
      store,
      steps,
      context: { body: { n: 2 } },
      source: { type: "endpoint", endpointId: "ep_after", method: "POST", slug: "after" },
      executionId,
      waitUntil: (task) => tasks.push(task),
      log: "after",
      answer: () => ({ httpStatus: 200, error: null }),
    });
    expect(result.executionId).toBe(executionId);
    expect(tasks).toHaveLength(1);
    await Promise.all(tasks);
    expect(await getExecutionOrThrow({ store, executionId })).toMatchObject({ endpointId: "ep_after", httpStatus: 200, request: null });
  });

  it("logs an automation run with its trigger, attempt and payload, no status and the run's own error", async () => {
    // The records service refuses an unknown schema: the step fails at run time.
    const failing = parseFlowOrThrow([{ type: "query", schema: "missing" }]);
    const result = await runProjectFlow({
      project,
      schemas: [],
      store,
      steps: failing,
      context: { trigger: { record: { id: "r1", token: "t" } } },
      source: { type: "automation", automationId: "aut_1", trigger: "record", attempt: 2, retryOf: "exe_01jz00000000000000000000aa" },
      waitUntil: () => undefined,
      log: "await",
    });
    expect(result.run?.outcome).toBe("failed");
    expect(result.answer).toEqual({ httpStatus: null, error: null });
    const entry = await getExecutionOrThrow({ store, executionId: result.executionId });
    expect(entry).toMatchObject({
      source: "automation",
      automationId: "aut_1",
      trigger: "record",
      attempt: 2,
      retryOf: "exe_01jz00000000000000000000aa",
      httpStatus: null,
      outcome: "failed",
    });
    expect(entry.error).toBe(result.run?.error?.message);
    expect(entry.request).toEqual({ query: null, body: '{"record":{"id":"r1","token":"[redacted]"}}' });
  });

  it("logs a stored flow that no longer validates as a failed run without running anything", async () => {
    const result = await runProjectFlow({
      project,
      schemas: [],
      store,
      steps: null,
      context: {},
      source: { type: "automation", automationId: "aut_2", trigger: "schedule", attempt: 1 },
      waitUntil: () => undefined,
      log: "await",
    });
    expect(result.run).toBeNull();
    expect(await getExecutionOrThrow({ store, executionId: result.executionId })).toMatchObject({ outcome: "failed", error: INVALID_FLOW_ERROR, steps: [], retryOf: null });
  });
});
