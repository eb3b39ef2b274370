import type { ChildProcess } from "node:child_process";
import { describe, expect, test } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { closeKv } from "@/lib/kv/get-kv";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { updateEndpoint } from "@/lib/endpoints/update-endpoint";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createProject } from "@/lib/projects/create-project";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { createTestUser } from "@/test/fixtures";
import { createTestRecord, createTicketSchemas } from "@/test/endpoint-fixtures";
import { startAppInstance } from "@/test/support/app-instances";
import { setProcessEnv } from "@/test/support/process-env";
import { projectApi } from "@/test/support/project-api";

/**
 * Two app processes over one PostgreSQL (platform and customer database) and one Redis: rate limits
 * are shared, an edit or a disable is visible at once on both, and the response cache is cleared
 * on both. Needs the real servers, so it runs when DATABASE_URL and REDIS_URL are set.
 */
const enabled = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const suite = enabled ? describe : describe.skip;
const title = enabled ? "two app processes over one PostgreSQL and one Redis" : "two app processes — skipped: DATABASE_URL and REDIS_URL are not both set";

function exited(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on("exit", resolve)));
}

const it = test
  /**
   * A project whose customer database is a PostgreSQL database of its own, with tickets, and the two
   * app instances serving it: `apis[i]` calls instance i without credentials.
   */
  .extend("shared", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await createScratchDatabase(process.env.DATABASE_URL!, "fp_two_instances");
    const customerUrl = new URL(database.url);
    const restoreEnv = setProcessEnv({ OUTBOUND_ALLOWED_HOSTS: `${customerUrl.hostname}:${customerUrl.port || 5432}` });
    const children: ChildProcess[] = [];
    onCleanup(async () => {
      for (const child of children) child.kill("SIGTERM");
      await Promise.all(children.map(exited));
      await closeAllRecordStores();
      await closeKv();
      await closePlatformDb();
      await database.drop();
      restoreEnv();
    });
    const owner = await createTestUser();
    const workspace = await createWorkspace({ userId: owner.id, name: "Two instances" });
    const project = await createProject({ workspaceId: workspace.id, actorId: owner.id, input: { name: "Shared", database: { kind: "postgres", url: database.url } } });
    await createTicketSchemas(project.id);
    await createTestRecord(project.id, "tickets", { title: "One", status: "open" });

    const instances = await Promise.all([startAppInstance(), startAppInstance()]);
    children.push(...instances.map((instance) => instance.child));
    return { projectId: project.id, apis: instances.map((instance) => projectApi(instance, { projectId: project.id }, "anonymous")) };
  });

suite(title, () => {
  it.beforeAll(({ shared }) => void shared, 120_000);

  it("shares the rate limit of a public endpoint between the instances", async ({ shared }) => {
    const { projectId } = shared;
    await createEndpoint({ projectId, input: { name: "Limited", method: "GET", slug: "limited", response: { body: "{}" } } });
    let allowed = 0;
    let refusedOn: number | null = null;
    for (let i = 0; i < 140 && refusedOn === null; i++) {
      const response = await shared.apis[i % 2]!.invoke("limited");
      if (response.status === 429) refusedOn = i % 2;
      else allowed++;
    }
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(allowed).toBeLessThan(120);
    // Both instances now refuse the same caller.
    expect((await shared.apis[0]!.invoke("limited")).status).toBe(429);
    expect((await shared.apis[1]!.invoke("limited")).status).toBe(429);
  });

  it("makes an edit and a disable visible at once on both instances, clearing the cache on both", async ({ shared }) => {
    const { projectId } = shared;
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
    const first = await shared.apis[0]!.invoke("cached", {}, "?x=1");
    expect(first.headers.get("x-cache")).toBe("miss");
    expect(await first.json()).toEqual({ v: 1, open: 1 });
    const fromOther = await shared.apis[1]!.invoke("cached", {}, "?x=1");
    expect(fromOther.headers.get("x-cache")).toBe("hit");
    expect(await fromOther.json()).toEqual({ v: 1, open: 1 });

    await createTestRecord(projectId, "tickets", { title: "Two", status: "open" });
    await updateEndpoint({ projectId, endpointId: endpoint.id, patch: { response: { body: '{"v": 2, "open": {{steps.open.length}}}' } } });
    for (const instance of [1, 0]) {
      const response = await shared.apis[instance]!.invoke("cached", {}, "?x=1");
      expect(await response.json()).toEqual({ v: 2, open: 2 });
    }

    await updateEndpoint({ projectId, endpointId: endpoint.id, patch: { enabled: false } });
    expect((await shared.apis[0]!.invoke("cached", {}, "?x=1")).status).toBe(404);
    expect((await shared.apis[1]!.invoke("cached", {}, "?x=1")).status).toBe(404);
  });

  it("stops a revoked API key at once on both instances, though each keeps the project's keys in memory", async ({ shared }) => {
    const { projectId } = shared;
    const key = await createApiKey({ projectId, input: { name: "Two instances", permissions: ["records.read"] } });
    const list = (instance: number) => shared.apis[instance]!.with({ credentials: { key: key.key } }).fetch("/records/tickets");
    expect((await list(0)).status).toBe(200);
    expect((await list(1)).status).toBe(200);
    // Key calls reuse the generation they read while the bump messages are heard (its subscription
    // starts with the first call): these calls are answered from reads that are no longer asked.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let call = 0; call < 3; call++) {
      expect((await list(0)).status).toBe(200);
      expect((await list(1)).status).toBe(200);
    }
    await revokeApiKey({ projectId, keyId: key.id });
    expect((await list(1)).status).toBe(401);
    expect((await list(0)).status).toBe(401);
  });
});
