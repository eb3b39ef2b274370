import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { OUTBOX_COLLECTION } from "@/lib/automations/record-event-outbox";
import { closeKv } from "@/lib/kv/get-kv";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { updateProject } from "@/lib/projects/update-project";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { readStoredSubmissions } from "@/lib/forms/testing/form-fixtures";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { automationRunsAfterQuiet, waitForAutomationRuns } from "@/test/support/automation-runs";
import { postgresBinariesAvailable, signal, sleep, startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from "@/test/support/fault-processes";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

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
const saved = { ...process.env };
let redis: PrivateRedis;
let server: RouteServer;
let fixture: ProjectFixture;
let key: string;
let api: ProjectApi;
let upstream: Server;
let upstreamPort: number;
let upstreamCalls = 0;

async function createAutomation(definition: unknown): Promise<string> {
  const response = await api.manage("/automations", { method: "POST", body: JSON.stringify(definition) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  // An upstream that answers slowly: a run is inside its first step when its worker is killed.
  upstream = createServer((_request, response) => {
    upstreamCalls++;
    setTimeout(() => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'), 1_500);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  await closeKv();
  await closeAutomationQueue();
  process.env.REDIS_URL = redis.url;
  process.env.AUTOMATION_LOCK_SECONDS = String(LOCK_SECONDS);
  process.env.OUTBOUND_ALLOWED_HOSTS = [process.env.OUTBOUND_ALLOWED_HOSTS, `127.0.0.1:${upstreamPort}`].filter(Boolean).join(",");
  delete process.env.UPSTASH_REDIS_REST_URL;
  resetConfigForTests();
  server = await startRouteServer();
  fixture = await createProjectFixture("Automation faults");
  key = await fixture.keyFor(["automations.read", "automations.write", "automations.run", "records.create"]);
  api = projectApi(server, fixture, { key });
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  await createSchema({ projectId: fixture.projectId, store, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "string", required: true }] } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await closeAutomationQueue(2_000);
  await redis?.dispose();
  await closeKv();
  await closeAllRecordStores();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  resetConfigForTests();
  await closePlatformDb();
});

describe("Redis unreachable while a record is written", () => {
  it("answers the write, keeps the run in the outbox and runs it once when Redis is back", async () => {
    const automationId = await createAutomation({
      name: "Echo notes",
      trigger: { type: "record", schema: "notes", events: ["create"] },
      steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
    });
    // The runtime (and its automation) is cached before Redis goes.
    expect((await api.manage("/records/notes", { method: "POST", body: '{"text":"warm-up"}' })).status).toBe(201);
    await waitForAutomationRuns(fixture.projectId, automationId, 1);

    await redis.stop();
    const started = Date.now();
    const written = await api.manage("/records/notes", { method: "POST", body: '{"text":"while Redis is down"}' });
    expect(written.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(10_000);
    const store = await getProjectRecordStore({ projectId: fixture.projectId });
    expect(await store.count(OUTBOX_COLLECTION)).toBe(1);

    await redis.start();
    const runs = await waitForAutomationRuns(fixture.projectId, automationId, 2, 30_000);
    expect(runs.map((run) => run.steps[0]?.outputPreview)).toContain(JSON.stringify("while Redis is down"));
    expect(await store.count(OUTBOX_COLLECTION)).toBe(0);
    expect(await automationRunsAfterQuiet(fixture.projectId, automationId, 3_000)).toHaveLength(2);
  }, 60_000);
});

describe("Redis unreachable while a form is submitted", () => {
  it("accepts and stores the submission, and runs it once when Redis is back", async () => {
    const automationId = await createAutomation({
      name: "Echo contacts",
      trigger: { type: "form", form: "contact-outage" },
      steps: [{ type: "transform", name: "name", expression: "trigger.fields.name" }],
    });
    const submit = (name: string) =>
      fetch(`${server.url}/api/projects/${fixture.projectId}/forms/contact-outage`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
    expect((await submit("warm-up")).status).toBe(202);
    await waitForAutomationRuns(fixture.projectId, automationId, 1);

    await redis.stop();
    const answered = await submit("while Redis is down");
    expect(answered.status).toBe(202);
    const { id } = (await answered.json()) as { id: string };
    const stored = () => readStoredSubmissions(fixture.projectId, automationId).then((rows) => rows.find((row) => row.id === id));
    expect(await stored()).toMatchObject({ fields: { name: "while Redis is down" }, queued: false });

    await redis.start();
    const runs = await waitForAutomationRuns(fixture.projectId, automationId, 2, 30_000);
    expect(runs.map((run) => run.steps[0]?.outputPreview)).toContain(JSON.stringify("while Redis is down"));
    expect(await stored()).toMatchObject({ queued: true });
    expect(await automationRunsAfterQuiet(fixture.projectId, automationId, 3_000)).toHaveLength(2);
  }, 60_000);
});

/**
 * Workers in other processes share the platform database and the project's customer database
 * (a PostgreSQL database of its own; the embedded one belongs to one process).
 */
const sharedDatabases = Boolean(process.env.DATABASE_URL);
(sharedDatabases ? describe : describe.skip)("workers in other processes", () => {
  const workers: ChildProcess[] = [];
  const adminUrl = (process.env.DATABASE_URL ?? "").replace(/\/[^/?]*(\?|$)/, "/postgres$1");
  const customerDb = `fp_automation_workers_${Date.now()}`;
  let shared: ProjectFixture;
  let sharedKey: string;

  const call = (route: string, body?: unknown) =>
    fetch(`${server.url}/api/projects/${shared.projectId}${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${sharedKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function createSharedAutomation(definition: unknown): Promise<string> {
    const response = await call("/automations", definition);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /** An app instance (the route harness) in a process of its own, which the test may kill. */
  function startInstance(): Promise<{ child: ChildProcess; url: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/serve-harness.ts")], {
        env: { ...process.env, NODE_ENV: "test" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      workers.push(child);
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /READY (\S+)/.exec(output);
        if (match) resolve({ child, url: match[1]! });
      });
      child.on("exit", (code) => reject(new Error(`instance exited with ${code}`)));
    });
  }

  function startWorker(): ChildProcess {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/worker.ts")], {
      env: { ...process.env, NODE_ENV: "test", AUTOMATION_WORKER: "on" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    workers.push(child);
    return child;
  }

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`create database ${customerDb}`);
    await client.end();
    const customerUrl = new URL(process.env.DATABASE_URL!);
    customerUrl.pathname = `/${customerDb}`;
    shared = await createProjectFixture("Automation workers");
    sharedKey = await shared.keyFor(["automations.write", "automations.run", "records.create"]);
    await updateProject({ projectId: shared.projectId, input: { database: { kind: "postgres", url: customerUrl.toString() } } });
    const store = await getProjectRecordStore({ projectId: shared.projectId });
    await createSchema({ projectId: shared.projectId, store, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "string", required: true }] } });
    // This process only queues; the child workers run.
    await closeAutomationQueue();
    process.env.AUTOMATION_WORKER = "off";
    resetConfigForTests();
  }, 60_000);

  afterAll(async () => {
    for (const child of workers) signal(child.pid, "SIGKILL");
    process.env.AUTOMATION_WORKER = "on";
    resetConfigForTests();
    await closeAutomationQueue();
    await closeAllRecordStores();
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${customerDb} with (force)`);
    await client.end();
  });

  it("re-runs the interrupted job once its lock lapses; the log says so; the step after runs once", async () => {
    const automationId = await createSharedAutomation({
      name: "Slow then write",
      trigger: { type: "manual" },
      steps: [
        { type: "http", name: "upstream", method: "GET", url: `http://127.0.0.1:${upstreamPort}/slow` },
        { type: "create", name: "note", schema: "notes", values: { text: "{{trigger.text}}" } },
      ],
    });
    const first = startWorker();
    upstreamCalls = 0;
    const response = await call(`/automations/${automationId}/run`, { text: "survives a kill" });
    expect(response.status).toBe(202);
    const { executionId } = (await response.json()) as { executionId: string };
    const deadline = Date.now() + 30_000;
    while (upstreamCalls === 0 && Date.now() < deadline) await sleep(50);
    expect(upstreamCalls).toBe(1);
    signal(first.pid, "SIGKILL");

    startWorker();
    const [run] = await waitForAutomationRuns(shared.projectId, automationId, 1, 60_000);
    expect(run).toMatchObject({ outcome: "completed", attempt: 1, retryOf: executionId, afterInterruption: true });
    expect(upstreamCalls).toBe(2);
    const store = await getProjectRecordStore({ projectId: shared.projectId });
    expect(await store.count("notes", { where: [{ field: "text", op: "eq", value: "survives a kill" }] })).toBe(1);
    expect(await automationRunsAfterQuiet(shared.projectId, automationId, 2_000)).toHaveLength(1);
  }, 120_000);

  it("runs the event of a write whose process died before queueing it (its outbox entry was written with the record)", async () => {
    const automationId = await createSharedAutomation({
      name: "Echo window notes",
      trigger: { type: "record", schema: "notes", events: ["create"], condition: { checks: [{ left: "{{trigger.record.text}}", operator: "contains", right: "window-" }] } },
      steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
    });
    const instance = await startInstance();
    // The queue stops answering: the instance's write commits, then waits to queue its event.
    redis.pause();
    try {
      const writing = fetch(`${instance.url}/api/projects/${shared.projectId}/records/notes`, {
        method: "POST",
        headers: { authorization: `Bearer ${sharedKey}`, "content-type": "application/json" },
        body: JSON.stringify({ text: "window-1" }),
      }).catch(() => null);
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

  it("with two workers, each record event runs exactly once", async () => {
    startWorker();
    const automationId = await createSharedAutomation({
      name: "Copy notes",
      trigger: { type: "record", schema: "notes", events: ["create"], condition: { checks: [{ left: "{{trigger.record.text}}", operator: "contains", right: "pair-" }] } },
      steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
    });
    const texts = Array.from({ length: 40 }, (_, index) => `pair-${index}`);
    for (const text of texts) expect((await call("/records/notes", { text })).status).toBe(201);
    await waitForAutomationRuns(shared.projectId, automationId, texts.length, 60_000);
    const runs = await automationRunsAfterQuiet(shared.projectId, automationId, 2_000);
    expect(runs.map((run) => JSON.parse(run.steps[0]!.outputPreview!) as string).sort()).toEqual([...texts].sort());
  }, 120_000);
});

(postgresBinariesAvailable() ? describe : describe.skip)("the customer database down during a run", () => {
  let postgres: PrivatePostgres;
  let project: ProjectFixture;
  let projectKey: string;

  beforeAll(async () => {
    await closeAutomationQueue();
    process.env.AUTOMATION_WORKER = "on";
    postgres = await startPrivatePostgres();
    process.env.OUTBOUND_ALLOWED_HOSTS = `${process.env.OUTBOUND_ALLOWED_HOSTS},127.0.0.1:${postgres.port}`;
    resetConfigForTests();
    project = await createProjectFixture("Customer database down");
    projectKey = await project.keyFor(["automations.write", "automations.run"]);
    await updateProject({ projectId: project.projectId, input: { database: { kind: "postgres", url: postgres.url } } });
    const store = await getProjectRecordStore({ projectId: project.projectId });
    await createSchema({ projectId: project.projectId, store, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "string", required: true }] } });
  }, 60_000);

  afterAll(() => {
    postgres?.dispose();
  });

  it("fails the run while it is down and retries it per the policy once it is back", async () => {
    const call = (route: string, body: unknown) =>
      fetch(`${server.url}/api/projects/${project.projectId}${route}`, {
        method: "POST",
        headers: { authorization: `Bearer ${projectKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = await call("/automations", {
      name: "Write a note",
      trigger: { type: "manual" },
      steps: [{ type: "create", name: "note", schema: "notes", values: { text: "{{trigger.text}}" } }],
      retry: { attempts: 3, backoffSeconds: 2 },
    });
    expect(created.status).toBe(201);
    const automationId = ((await created.json()) as { id: string }).id;

    postgres.stopImmediate();
    const queued = await call(`/automations/${automationId}/run`, { text: "after the outage" });
    expect(queued.status).toBe(202);
    // The first attempt meets the stopped database; the database is back before the retries run out.
    await sleep(1_000);
    await postgres.start();
    const runs = await waitForAutomationRuns(project.projectId, automationId, 1, 30_000);
    expect(runs[0]).toMatchObject({ outcome: "completed" });
    expect(runs[0]!.attempt).toBeGreaterThan(1);
    const store = await getProjectRecordStore({ projectId: project.projectId });
    expect(await store.count("notes", { where: [{ field: "text", op: "eq", value: "after the outage" }] })).toBe(1);
  }, 60_000);
});
