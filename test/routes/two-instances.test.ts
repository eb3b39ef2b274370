import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { closeKv } from "@/lib/kv/get-kv";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { updateEndpoint } from "@/lib/endpoints/update-endpoint";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createProject } from "@/lib/projects/create-project";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { createTestUser } from "@/test/fixtures";
import { createTestRecord, createTicketSchemas } from "@/test/endpoint-fixtures";

/**
 * Two app processes over one PostgreSQL (platform and customer database) and one Redis: rate limits
 * are shared, an edit or a disable is visible at once on both, and the response cache is cleared
 * on both. Needs the real servers, so it runs when DATABASE_URL and REDIS_URL are set.
 */
const enabled = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const suite = enabled ? describe : describe.skip;
const title = enabled ? "two app processes over one PostgreSQL and one Redis" : "two app processes — skipped: DATABASE_URL and REDIS_URL are not both set";

let children: ChildProcess[] = [];
let urls: string[] = [];
let projectId = "";
let customerDb = "";
const adminUrl = (process.env.DATABASE_URL ?? "").replace(/\/[^/?]*(\?|$)/, "/postgres$1");

function startInstance(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/serve-harness.ts")], {
      env: { ...process.env, NODE_ENV: "test" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on("exit", (code) => reject(new Error(`instance exited with ${code}`)));
  });
}

suite(title, () => {
  beforeAll(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    customerDb = `fp_two_instances_${Date.now()}`;
    await client.query(`create database ${customerDb}`);
    await client.end();
    const customerUrl = new URL(process.env.DATABASE_URL!);
    customerUrl.pathname = `/${customerDb}`;
    process.env.OUTBOUND_ALLOWED_HOSTS = `${customerUrl.hostname}:${customerUrl.port || 5432}`;
    resetConfigForTests();

    const owner = await createTestUser();
    const workspace = await createWorkspace({ userId: owner.id, name: "Two instances" });
    const project = await createProject({ workspaceId: workspace.id, actorId: owner.id, input: { name: "Shared", database: { kind: "postgres", url: customerUrl.toString() } } });
    projectId = project.id;
    await createTicketSchemas(projectId);
    await createTestRecord(projectId, "tickets", { title: "One", status: "open" });

    const instances = await Promise.all([startInstance(), startInstance()]);
    children = instances.map((instance) => instance.child);
    urls = instances.map((instance) => instance.url);
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on("exit", resolve)))));
    await closeAllRecordStores();
    await closeKv();
    await closePlatformDb();
    if (customerDb) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${customerDb} with (force)`);
      await client.end();
    }
  });

  const call = (instance: number, slug: string, search = "") => fetch(`${urls[instance]}/api/projects/${projectId}/fn/${slug}${search}`);

  it("shares the rate limit of a public endpoint between the instances", async () => {
    await createEndpoint({ projectId, input: { name: "Limited", method: "GET", slug: "limited", response: { body: "{}" } } });
    let allowed = 0;
    let refusedOn: number | null = null;
    for (let i = 0; i < 140 && refusedOn === null; i++) {
      const response = await call(i % 2, "limited");
      if (response.status === 429) refusedOn = i % 2;
      else allowed++;
    }
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(allowed).toBeLessThan(120);
    // Both instances now refuse the same caller.
    expect((await call(0, "limited")).status).toBe(429);
    expect((await call(1, "limited")).status).toBe(429);
  });

  it("makes an edit and a disable visible at once on both instances, clearing the cache on both", async () => {
    const endpoint = await createEndpoint({
      projectId,
      input: {
        name: "Cached",
        method: "GET",
        slug: "cached",
        cacheSeconds: 300,
        steps: [{ type: "query", name: "open", schema: "tickets", filters: "status=open" }],
        response: { body: '{"v": 1, "open": {{steps.open.length}}}' },
      },
    });
    const first = await call(0, "cached", "?x=1");
    expect(first.headers.get("x-cache")).toBe("miss");
    expect(await first.json()).toEqual({ v: 1, open: 1 });
    const fromOther = await call(1, "cached", "?x=1");
    expect(fromOther.headers.get("x-cache")).toBe("hit");
    expect(await fromOther.json()).toEqual({ v: 1, open: 1 });

    await createTestRecord(projectId, "tickets", { title: "Two", status: "open" });
    await updateEndpoint({ projectId, endpointId: endpoint.id, patch: { response: { body: '{"v": 2, "open": {{steps.open.length}}}' } } });
    for (const instance of [1, 0]) {
      const response = await call(instance, "cached", "?x=1");
      expect(await response.json()).toEqual({ v: 2, open: 2 });
    }

    await updateEndpoint({ projectId, endpointId: endpoint.id, patch: { enabled: false } });
    expect((await call(0, "cached", "?x=1")).status).toBe(404);
    expect((await call(1, "cached", "?x=1")).status).toBe(404);
  });

  it("stops a revoked API key at once on both instances, though each keeps the project's keys in memory", async () => {
    const key = await createApiKey({ projectId, input: { name: "Two instances", permissions: ["records.read"] } });
    const list = (instance: number) => fetch(`${urls[instance]}/api/projects/${projectId}/records/tickets`, { headers: { authorization: `Bearer ${key.key}` } });
    expect((await list(0)).status).toBe(200);
    expect((await list(1)).status).toBe(200);
    await revokeApiKey({ projectId, keyId: key.id });
    expect((await list(1)).status).toBe(401);
    expect((await list(0)).status).toBe(401);
  });
});
