import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { describe, expect, vi } from "vitest";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { resetEncryptionKeysForTests } from "@/lib/crypto/secrets";
import { closeAutomationQueue, getAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { listExecutions } from "@/lib/flow/execution-log/list-executions";
import type { ExecutionLogEntry } from "@/lib/flow/execution-log/execution-log-entry";
import { closeKv } from "@/lib/kv/get-kv";
import { startUpstashRestBridge, type UpstashRestBridge } from "@/lib/kv/testing/upstash-rest-bridge";
import { createProject } from "@/lib/projects/create-project";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createTestUser } from "@/test/fixtures";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * A serverless host as the platform runs it: route handlers only, DEPLOY_TARGET=serverless, PostgreSQL
 * (platform and the project's own database: the built-in one is refused there) and Upstash (here the
 * REST bridge in front of the test Redis), no TCP Redis for BullMQ and no worker.
 * Next's after() is replaced by what such a host does with it: once the answer is out, it runs the
 * callbacks and keeps the function alive until they, and any they add, have settled, and for nothing
 * else. An automation run must be finished and logged by then; anything left over would be frozen
 * with the function.
 */
const platform = vi.hoisted(() => {
  const callbacks: Array<() => unknown> = [];
  return {
    after(task: unknown): void {
      callbacks.push(typeof task === "function" ? (task as () => unknown) : () => task);
    },
    /** Runs every after() callback to completion, as the host's waitUntil does; answers how many ran. */
    async keepAliveForAfterCallbacks(): Promise<number> {
      let ran = 0;
      while (callbacks.length > 0) {
        const batch = callbacks.splice(0);
        ran += batch.length;
        await Promise.allSettled(batch.map((callback) => Promise.resolve().then(callback)));
      }
      return ran;
    },
  };
});
vi.mock("next/server", async (importOriginal) => ({ ...(await importOriginal<typeof import("next/server")>()), after: platform.after }));

const databaseUrl = process.env.DATABASE_URL;
const adminUrl = (databaseUrl ?? "").replace(/\/[^/?]*(\?|$)/, "/postgres$1");
const redisUrl = process.env.REDIS_URL;
const SERVERLESS_VARIABLES = [
  "DEPLOY_TARGET",
  "REDIS_URL",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
  "ENCRYPTION_KEYS",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
  "OUTBOUND_ALLOWED_HOSTS",
] as const;
const saved = Object.fromEntries(SERVERLESS_VARIABLES.map((name) => [name, process.env[name]]));

async function runsOf(api: ProjectApi, automationId: string): Promise<ExecutionLogEntry[]> {
  const store = await getProjectRecordStore({ projectId: api.projectId });
  return (await listExecutions({ store, automationId, query: { limit: 100 } })).data;
}

async function createAutomation(api: ProjectApi, definition: unknown): Promise<string> {
  const response = await api.manage("/automations", { method: "POST", body: JSON.stringify(definition) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const it = routeTest
  /**
   * The serverless host's surroundings until the file ends: the Upstash REST bridge in front of the test
   * Redis, an upstream (it answers after 300 ms, so a run outlives its request by at least that; the first
   * call of a `fail-once` path is cut off; `calls` lists the paths it saw), the project's own PostgreSQL
   * database, and the serverless variables.
   */
  .extend("host", { scope: "file" }, async ({}, { onCleanup }) => {
    // What is opened so far, for the cleanup (set up may stop half-way).
    const opened: { bridge?: UpstashRestBridge; upstream?: Server; customerDb?: string } = {};
    onCleanup(async () => {
      await closeAutomationQueue();
      await closeKv();
      await opened.bridge?.close();
      if (opened.customerDb) {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${opened.customerDb} with (force)`);
        await admin.end();
      }
      await new Promise<void>((resolve) => (opened.upstream ? opened.upstream.close(() => resolve()) : resolve()));
      for (const name of SERVERLESS_VARIABLES) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      resetConfigForTests();
      resetEncryptionKeysForTests();
    });
    const bridge = await startUpstashRestBridge({ redisUrl: redisUrl! });
    opened.bridge = bridge;
    const calls: string[] = [];
    const upstream = createServer((request, response) => {
      const path = request.url ?? "/";
      const seen = calls.filter((call) => call === path).length;
      calls.push(path);
      if (path.startsWith("/fail-once") && seen === 0) {
        request.socket.destroy();
        return;
      }
      setTimeout(() => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ answered: path }));
      }, 300);
    });
    opened.upstream = upstream;
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const customerDb = `fp_serverless_${Date.now()}`;
    await admin.query(`create database ${customerDb}`);
    opened.customerDb = customerDb;
    await admin.end();
    const customerUrl = new URL(databaseUrl!);
    customerUrl.pathname = `/${customerDb}`;

    await closeKv();
    await closeAutomationQueue();
    Object.assign(process.env, {
      // The project's database is on the test server's loopback address too.
      DEPLOY_TARGET: "serverless",
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
      NEXTAUTH_SECRET: "serverless-test-secret",
      NEXTAUTH_URL: "https://flowpoint.example",
      OUTBOUND_ALLOWED_HOSTS: [saved.OUTBOUND_ALLOWED_HOSTS, `${customerUrl.hostname}:${customerUrl.port || 5432}`, `127.0.0.1:${port}`].filter(Boolean).join(","),
    });
    delete process.env.REDIS_URL;
    resetConfigForTests();
    resetEncryptionKeysForTests();
    expect(getConfig()).toMatchObject({ serverless: true, kvBackend: "upstash", embedded: false });
    return { upstreamUrl: `http://127.0.0.1:${port}`, upstreamCalls: calls, customerUrl: customerUrl.toString() };
  })
  // Only a dependency: the route server starts on the serverless host.
  .extend("server", { scope: "file" }, ({ host: _host, server }) => server)
  /** The client with a key for automations, on a project whose records are in its own PostgreSQL database; made before the first test. */
  .extend("api", { scope: "file", auto: true }, async ({ host, server }) => {
    const owner = await createTestUser();
    const workspace = await createWorkspace({ userId: owner.id, name: "Serverless" });
    const project = await createProject({
      workspaceId: workspace.id,
      actorId: owner.id,
      input: { name: "Serverless automations", database: { kind: "postgres", url: host.customerUrl } },
    });
    const { key } = await createApiKey({ projectId: project.id, input: { name: "test key", permissions: ["automations.read", "automations.write", "automations.run"] } });
    const api = projectApi(server, { projectId: project.id }, { key });
    await platform.keepAliveForAfterCallbacks();
    return api;
  });

if (!databaseUrl || !redisUrl) {
  describe("automations on a serverless host (skipped: needs DATABASE_URL and REDIS_URL, for PostgreSQL and the Upstash REST bridge)", () => {
    it.skip("a manual run answers 202, then runs to completion and is logged within the host's after() keep-alive", () => undefined);
  });
} else {
  describe("automations on a serverless host (no worker: in the function, through after())", () => {
    it("uses the in-process queue, since no worker can outlive a request", () => {
      expect(getAutomationQueue()).toMatchObject({ kind: "in-process", durable: false });
    });

    it("a manual run answers 202 at once, then runs to completion and is logged before the host's after() keep-alive ends", async ({ host, api }) => {
      const automationId = await createAutomation(api, {
        name: "Call the slow upstream",
        trigger: { type: "manual" },
        steps: [
          { type: "http", name: "call", method: "GET", url: `${host.upstreamUrl}/slow?title={{trigger.title}}` },
          { type: "transform", name: "answer", expression: "steps.call.body" },
        ],
      });
      await platform.keepAliveForAfterCallbacks();

      const response = await api.manage(`/automations/${automationId}/run`, { method: "POST", body: JSON.stringify({ title: "serverless" }) });
      expect(response.status).toBe(202);
      const { executionId } = (await response.json()) as { executionId: string };
      // The run never happens inside the request: nothing is logged when the answer arrives.
      expect(await runsOf(api, automationId)).toEqual([]);

      expect(await platform.keepAliveForAfterCallbacks()).toBeGreaterThan(0);
      // Read at once, without polling: the run finished inside what the host kept alive.
      const [run, ...others] = await runsOf(api, automationId);
      expect(others).toEqual([]);
      expect(run).toMatchObject({ id: executionId, source: "automation", automationId, trigger: "manual", attempt: 1, outcome: "completed" });
      expect(run!.steps.map((step) => step.status)).toEqual(["ok", "ok"]);
      expect(JSON.parse(run!.steps[1]!.outputPreview!)).toEqual({ answered: "/slow?title=serverless" });
    });

    it("keeps the function alive through a retry's backoff, so the retry runs and is logged too", async ({ host, api }) => {
      const automationId = await createAutomation(api, {
        name: "Retry once",
        trigger: { type: "manual" },
        retry: { attempts: 1, backoffSeconds: 1 },
        steps: [{ type: "http", name: "call", method: "GET", url: `${host.upstreamUrl}/fail-once` }],
      });
      await platform.keepAliveForAfterCallbacks();

      const response = await api.manage(`/automations/${automationId}/run`, { method: "POST", body: "{}" });
      expect(response.status).toBe(202);
      await platform.keepAliveForAfterCallbacks();

      const runs = await runsOf(api, automationId);
      expect(runs.map((run) => [run.attempt, run.outcome]).sort()).toEqual([
        [1, "failed"],
        [2, "completed"],
      ]);
      expect(host.upstreamCalls.filter((call) => call === "/fail-once")).toHaveLength(2);
    });
  });
}
