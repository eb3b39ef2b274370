import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { Redis } from "ioredis";
import { unpackBatch, type AutomationBatch } from "@/lib/automations/queue/automation-batch";
import type { AutomationJob } from "@/lib/automations/queue/automation-job";
import { runsInJob } from "@/lib/automations/queue/bullmq-automation-queue";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { OUTBOX_COLLECTION } from "@/lib/automations/record-event-outbox";
import { closeKv } from "@/lib/kv/get-kv";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { updateProject } from "@/lib/projects/update-project";
import { createScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createSchema } from "@/lib/schemas/create-schema";
import { readStoredSubmissions } from "@/test/support/form-fixtures";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startAppInstance } from "@/test/support/app-instances";
import { automationRunsAfterQuiet, waitForAutomationRuns } from "@/test/support/automation-runs";
import { postgresBinariesAvailable, signal, sleep, startPrivatePostgres, startPrivateRedis } from "@/test/support/fault-processes";
import { setProcessEnv } from "@/test/support/process-env";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Faults under automations (issue 10), each against servers of this file's own (a redis-server and,
 * where needed, a PostgreSQL cluster on free loopback ports; the shared ones are never touched):
 * - Redis gone while a record is written: the write answers as usual, the run waits in the customer
 *   database's outbox (written with the record) and runs once Redis is back — exactly once;
 * - Redis gone while a form is submitted: the submission is stored and answered 202 (`queued: false`),
 *   and runs once Redis is back;
 * - the writing process killed after its write committed and before its event was queued (Redis
 *   paused to hold it there): a worker started later finds the outbox entry and runs it, once;
 * - a worker killed with SIGKILL mid-run: once its lock lapses another worker re-runs the job, and
 *   the log says the run repeats an interrupted one (needs a shared platform database: DATABASE_URL);
 * - the customer database down during a run: the run fails and is retried per its policy; the
 *   attempt that ran while the database was down cannot be logged there (reported in the server
 *   log), the retry that succeeds is.
 */
const LOCK_SECONDS = 5;
const NOTES = { name: "notes", kind: "collection", fields: [{ name: "text", type: "string", required: true }] };

/** Gives the project the `notes` schema; answers its client calling with a key of `permissions`. */
async function notesApi(ownerApi: ProjectApi, project: ProjectFixture, permissions: Permission[]): Promise<ProjectApi> {
  const store = await getProjectRecordStore({ projectId: project.projectId });
  await createSchema({ projectId: project.projectId, store, definition: NOTES });
  return ownerApi.with({ projectId: project.projectId, credentials: { key: await project.keyFor(permissions) } });
}

const it = routeTest
  /**
   * An upstream that answers slowly (at once under /fast, in 6 s under /slow-batched), counting its
   * calls: a run is inside its first step when its worker is killed.
   */
  .extend("upstream", { scope: "file" }, async ({}, { onCleanup }) => {
    const upstream = { port: 0, calls: 0 };
    const server = createServer((request, response) => {
      upstream.calls++;
      const delay = request.url?.startsWith("/fast") ? 0 : request.url?.startsWith("/slow-batched") ? 6_000 : 1_500;
      setTimeout(() => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'), delay);
    });
    onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    upstream.port = (server.address() as AddressInfo).port;
    return upstream;
  })
  /** This file's own redis-server: the key-value tier and the automation queue until the file ends. */
  .extend("redis", { scope: "file" }, async ({ upstream }, { onCleanup }) => {
    const redis = await startPrivateRedis();
    await closeKv();
    await closeAutomationQueue();
    const restoreEnv = setProcessEnv({
      REDIS_URL: redis.url,
      AUTOMATION_LOCK_SECONDS: String(LOCK_SECONDS),
      OUTBOUND_ALLOWED_HOSTS: [process.env.OUTBOUND_ALLOWED_HOSTS, `127.0.0.1:${upstream.port}`].filter(Boolean).join(","),
      UPSTASH_REDIS_REST_URL: undefined,
    });
    onCleanup(async () => {
      await closeAutomationQueue(2_000);
      await redis.dispose();
      await closeKv();
      restoreEnv();
    });
    return redis;
  })
  // Only a dependency: the route server starts once this file's Redis is the configured one.
  .extend("server", { scope: "file" }, ({ redis: _redis, server }) => server)
  .extend("api", { scope: "file" }, ({ ownerApi, project }) => notesApi(ownerApi, project, ["automations.read", "automations.write", "automations.run", "records.create"]))
  /**
   * A project whose customer database is a PostgreSQL database of its own (the embedded one belongs
   * to one process), which workers in other processes share; `api` calls it with a key.
   */
  .extend("shared", { scope: "file" }, async ({ ownerApi }, { onCleanup }) => {
    const database = await createScratchDatabase(process.env.DATABASE_URL!, "fp_automation_workers");
    const shared = await createProjectFixture("Automation workers");
    onCleanup(async () => {
      await (await getProjectRecordStore({ projectId: shared.projectId })).close();
      await database.drop();
    });
    await updateProject({ projectId: shared.projectId, input: { database: { kind: "postgres", url: database.url } } });
    return { projectId: shared.projectId, api: await notesApi(ownerApi, shared, ["automations.write", "automations.run", "records.create"]) };
  })
  /**
   * A project on a PostgreSQL cluster of this file's own (stopped and removed when the file ends),
   * whose automation runs in this process's worker.
   */
  .extend("down", { scope: "file" }, async ({ ownerApi }, { onCleanup }) => {
    await closeAutomationQueue();
    const postgres = await startPrivatePostgres();
    const restoreEnv = setProcessEnv({ AUTOMATION_WORKER: "on", OUTBOUND_ALLOWED_HOSTS: `${process.env.OUTBOUND_ALLOWED_HOSTS},127.0.0.1:${postgres.port}` });
    onCleanup(() => {
      postgres.dispose();
      restoreEnv();
    });
    const project = await createProjectFixture("Customer database down");
    await updateProject({ projectId: project.projectId, input: { database: { kind: "postgres", url: postgres.url } } });
    return { postgres, projectId: project.projectId, api: await notesApi(ownerApi, project, ["automations.write", "automations.run"]) };
  });

// Redis, the upstream, the server and the project are built under the hook timeout, not the first test's.
it.beforeAll(({ api }) => void api);

async function createAutomation(api: ProjectApi, definition: unknown): Promise<string> {
  const response = await api.manage("/automations", { method: "POST", body: JSON.stringify(definition) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe("Redis unreachable while a record is written", () => {
  it("answers the write, keeps the run in the outbox and runs it once when Redis is back", async ({ redis, api, project }) => {
    const automationId = await createAutomation(api, {
      name: "Echo notes",
      trigger: { type: "record", schema: "notes", events: ["create"] },
      steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
    });
    // The runtime (and its automation) is cached before Redis goes.
    expect((await api.manage("/records/notes", { method: "POST", body: '{"text":"warm-up"}' })).status).toBe(201);
    await waitForAutomationRuns(project.projectId, automationId, 1);

    await redis.stop();
    const started = Date.now();
    const written = await api.manage("/records/notes", { method: "POST", body: '{"text":"while Redis is down"}' });
    expect(written.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(10_000);
    const store = await getProjectRecordStore({ projectId: project.projectId });
    expect(await store.count(OUTBOX_COLLECTION)).toBe(1);

    await redis.start();
    const runs = await waitForAutomationRuns(project.projectId, automationId, 2, 30_000);
    expect(runs.map((run) => run.steps[0]?.outputPreview)).toContain(JSON.stringify("while Redis is down"));
    expect(await store.count(OUTBOX_COLLECTION)).toBe(0);
    expect(await automationRunsAfterQuiet(project.projectId, automationId, 3_000)).toHaveLength(2);
  }, 60_000);
});

describe("Redis unreachable while a form is submitted", () => {
  it("accepts and stores the submission, and runs it once when Redis is back", async ({ redis, api, project }) => {
    const automationId = await createAutomation(api, {
      name: "Echo contacts",
      trigger: { type: "form", form: "contact-outage" },
      steps: [{ type: "transform", name: "name", expression: "trigger.fields.name" }],
    });
    const submit = (name: string) => api.postForm("contact-outage", { headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
    expect((await submit("warm-up")).status).toBe(202);
    await waitForAutomationRuns(project.projectId, automationId, 1);

    await redis.stop();
    const answered = await submit("while Redis is down");
    expect(answered.status).toBe(202);
    const { id } = (await answered.json()) as { id: string };
    const stored = () => readStoredSubmissions(project.projectId, automationId).then((rows) => rows.find((row) => row.id === id));
    expect(await stored()).toMatchObject({ fields: { name: "while Redis is down" }, queued: false });

    await redis.start();
    const runs = await waitForAutomationRuns(project.projectId, automationId, 2, 30_000);
    expect(runs.map((run) => run.steps[0]?.outputPreview)).toContain(JSON.stringify("while Redis is down"));
    expect(await stored()).toMatchObject({ queued: true });
    expect(await automationRunsAfterQuiet(project.projectId, automationId, 3_000)).toHaveLength(2);
  }, 60_000);
});

/**
 * Workers in other processes share the platform database and the project's customer database
 * (a PostgreSQL database of its own; the embedded one belongs to one process).
 */
const sharedDatabases = Boolean(process.env.DATABASE_URL);
(sharedDatabases ? describe : describe.skip)("workers in other processes", () => {
  const workers: ChildProcess[] = [];

  /** Stops every worker this file started (SIGTERM: each gives its run slots back). */
  async function stopWorkers(): Promise<void> {
    await Promise.all(
      workers.splice(0).map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            signal(child.pid, "SIGTERM");
          }),
      ),
    );
  }

  function startWorker(): ChildProcess {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
      env: { ...process.env, NODE_ENV: "test", AUTOMATION_WORKER: "on" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    workers.push(child);
    return child;
  }

  // This process only queues; the child workers run.
  beforeAll(async () => {
    await closeAutomationQueue();
    setProcessEnv({ AUTOMATION_WORKER: "off" });
  });

  afterAll(async () => {
    for (const child of workers) signal(child.pid, "SIGKILL");
    setProcessEnv({ AUTOMATION_WORKER: "on" });
    await closeAutomationQueue();
  });

  it("re-runs the interrupted job once its lock lapses; the log says so; the step after runs once", async ({ upstream, shared }) => {
    const automationId = await createAutomation(shared.api, {
      name: "Slow then write",
      trigger: { type: "manual" },
      steps: [
        { type: "http", name: "upstream", method: "GET", url: `http://127.0.0.1:${upstream.port}/slow` },
        { type: "create", name: "note", schema: "notes", values: { text: "{{trigger.text}}" } },
      ],
    });
    const first = startWorker();
    upstream.calls = 0;
    const response = await shared.api.request("POST", `/automations/${automationId}/run`, { text: "survives a kill" });
    expect(response.status).toBe(202);
    const { executionId } = (await response.json()) as { executionId: string };
    const deadline = Date.now() + 30_000;
    while (upstream.calls === 0 && Date.now() < deadline) await sleep(50);
    expect(upstream.calls).toBe(1);
    signal(first.pid, "SIGKILL");

    startWorker();
    const [run] = await waitForAutomationRuns(shared.projectId, automationId, 1, 60_000);
    expect(run).toMatchObject({ outcome: "completed", attempt: 1, retryOf: executionId, afterInterruption: true });
    expect(upstream.calls).toBe(2);
    const store = await getProjectRecordStore({ projectId: shared.projectId });
    expect(await store.count("notes", { where: [{ field: "text", op: "eq", value: "survives a kill" }] })).toBe(1);
    expect(await automationRunsAfterQuiet(shared.projectId, automationId, 2_000)).toHaveLength(1);
  }, 120_000);

  it("re-runs an interrupted batch of record events: runs it had logged are not run again, the others say they repeat one", async ({ redis, upstream, shared }) => {
    const automationId = await createAutomation(shared.api, {
      name: "Call then copy batched notes",
      trigger: { type: "record", schema: "notes", events: ["create"], condition: { checks: [{ left: "{{trigger.record.text}}", operator: "contains", right: "batched-" }] } },
      steps: [
        { type: "http", name: "upstream", method: "GET", url: `http://127.0.0.1:${upstream.port}/{{trigger.record.text}}` },
        { type: "create", name: "copy", schema: "notes", values: { text: "copy of {{trigger.record.text}}" } },
      ],
    });
    // Written together, with no worker running: their events wait in the queue as one batch job.
    await stopWorkers();
    const texts = ["fast-batched-1", "fast-batched-2", "fast-batched-3", "slow-batched-1", "slow-batched-2"];
    upstream.calls = 0;
    const answers = await Promise.all(texts.map((text) => shared.api.request("POST", "/records/notes", { text })));
    expect(answers.map((answer) => answer.status)).toEqual(texts.map(() => 201));
    const inspector = new Redis(redis.url);
    const queuePrefix = `${process.env.KV_KEY_PREFIX}bull:automations:`;
    // The runs of this automation waiting in the queue, by job (other files' tests may have left jobs of other projects).
    const runsByJob = new Map<string, number>();
    for (const id of await inspector.lrange(`${queuePrefix}wait`, 0, -1)) {
      const data = JSON.parse((await inspector.hget(`${queuePrefix}${id}`, "data")) ?? "{}") as AutomationBatch | AutomationJob;
      const mine = ("runs" in data ? unpackBatch(data) : [data]).filter((run) => run.automationId === automationId).length;
      if (mine > 0) runsByJob.set(id, mine);
    }
    inspector.disconnect();
    expect([...runsByJob.values()].reduce((sum, runs) => sum + runs, 0)).toBe(texts.length);
    expect([...runsByJob].some(([id, runs]) => runs > 1 && runsInJob(id) === runs)).toBe(true);

    // The fast runs end and are logged; the slow ones are inside their upstream call at the kill.
    const first = startWorker();
    await waitForAutomationRuns(shared.projectId, automationId, 3, 30_000);
    const deadline = Date.now() + 10_000;
    while (upstream.calls < texts.length && Date.now() < deadline) await sleep(20);
    signal(first.pid, "SIGKILL");

    startWorker();
    await waitForAutomationRuns(shared.projectId, automationId, texts.length, 60_000);
    const runs = await automationRunsAfterQuiet(shared.projectId, automationId, 2_000);
    expect(runs).toHaveLength(texts.length);
    const textOf = (run: ExecutionLogEntry) => (JSON.parse(run.request!.body!) as { record: { text: string } }).record.text;
    for (const run of runs) {
      expect(run.outcome).toBe("completed");
      if (textOf(run).startsWith("fast")) expect(run).toMatchObject({ attempt: 1, retryOf: null });
      else expect(run).toMatchObject({ attempt: 1, afterInterruption: true, retryOf: expect.any(String) });
    }
    expect(runs.map(textOf).sort()).toEqual([...texts].sort());
    const store = await getProjectRecordStore({ projectId: shared.projectId });
    for (const text of texts) expect(await store.count("notes", { where: [{ field: "text", op: "eq", value: `copy of ${text}` }] })).toBe(1);
  }, 120_000);

  it("runs the event of a write whose process died before queueing it (its outbox entry was written with the record)", async ({ redis, shared }) => {
    const automationId = await createAutomation(shared.api, {
      name: "Echo window notes",
      trigger: { type: "record", schema: "notes", events: ["create"], condition: { checks: [{ left: "{{trigger.record.text}}", operator: "contains", right: "window-" }] } },
      steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
    });
    const instance = await startAppInstance();
    workers.push(instance.child);
    // The queue stops answering: the instance's write commits, then waits to queue its event.
    redis.pause();
    try {
      const writing = shared.api
        .with({ server: instance })
        .request("POST", "/records/notes", { text: "window-1" })
        .catch(() => null);
      const store = await getProjectRecordStore({ projectId: shared.projectId });
      const deadline = Date.now() + 20_000;
      while ((await store.count("notes", { where: [{ field: "text", op: "eq", value: "window-1" }] })) === 0 && Date.now() < deadline) await sleep(20);
      expect(await store.count(OUTBOX_COLLECTION)).toBe(1);
      signal(instance.child.pid, "SIGKILL");
      expect(await writing).toBeNull();
    } finally {
      redis.resume();
    }
    startWorker();
    const [run] = await waitForAutomationRuns(shared.projectId, automationId, 1, 60_000);
    expect(run).toMatchObject({ outcome: "completed" });
    expect(run!.steps[0]?.outputPreview).toBe(JSON.stringify("window-1"));
    expect(await automationRunsAfterQuiet(shared.projectId, automationId, 2_000)).toHaveLength(1);
  }, 120_000);

  it("with two workers, each record event runs exactly once", async ({ shared }) => {
    startWorker();
    const automationId = await createAutomation(shared.api, {
      name: "Copy notes",
      trigger: { type: "record", schema: "notes", events: ["create"], condition: { checks: [{ left: "{{trigger.record.text}}", operator: "contains", right: "pair-" }] } },
      steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
    });
    const texts = Array.from({ length: 40 }, (_, index) => `pair-${index}`);
    for (const text of texts) expect((await shared.api.request("POST", "/records/notes", { text })).status).toBe(201);
    await waitForAutomationRuns(shared.projectId, automationId, texts.length, 60_000);
    const runs = await automationRunsAfterQuiet(shared.projectId, automationId, 2_000);
    expect(runs.map((run) => JSON.parse(run.steps[0]!.outputPreview!) as string).sort()).toEqual([...texts].sort());
  }, 120_000);
});

(postgresBinariesAvailable() ? describe : describe.skip)("the customer database down during a run", () => {
  it("fails the run while it is down and retries it per the policy once it is back", async ({ down }) => {
    const call = (route: string, body: unknown) => down.api.request("POST", route, body);
    const created = await call("/automations", {
      name: "Write a note",
      trigger: { type: "manual" },
      steps: [{ type: "create", name: "note", schema: "notes", values: { text: "{{trigger.text}}" } }],
      retry: { attempts: 3, backoffSeconds: 2 },
    });
    expect(created.status).toBe(201);
    const automationId = ((await created.json()) as { id: string }).id;

    down.postgres.stopImmediate();
    const queued = await call(`/automations/${automationId}/run`, { text: "after the outage" });
    expect(queued.status).toBe(202);
    // The first attempt meets the stopped database; the database is back before the retries run out.
    await sleep(1_000);
    await down.postgres.start();
    const runs = await waitForAutomationRuns(down.projectId, automationId, 1, 30_000);
    expect(runs[0]).toMatchObject({ outcome: "completed" });
    expect(runs[0]!.attempt).toBeGreaterThan(1);
    const store = await getProjectRecordStore({ projectId: down.projectId });
    expect(await store.count("notes", { where: [{ field: "text", op: "eq", value: "after the outage" }] })).toBe(1);
  }, 60_000);
});
