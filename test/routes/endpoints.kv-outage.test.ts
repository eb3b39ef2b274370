import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { closeKv } from "@/lib/kv/get-kv";
import { setProcessEnv } from "@/test/support/process-env";
import { routeTest } from "@/test/support/route-test";

/**
 * The shared key-value store is down (a Redis that accepts connections and never answers): the
 * instance keeps serving, and a change made through it is visible to its very next call, although
 * the generation bump in the shared store is lost.
 */
const it = routeTest
  /** A Redis that accepts connections and never answers, the configured key-value store until the file ends. */
  .extend("silentRedis", { scope: "file" }, async ({}, { onCleanup }) => {
    const silentRedis = createServer((socket) => socket.on("error", () => undefined));
    await new Promise<void>((resolve) => silentRedis.listen(0, "127.0.0.1", resolve));
    await closeKv();
    const restoreEnv = setProcessEnv({ REDIS_URL: `redis://127.0.0.1:${(silentRedis.address() as AddressInfo).port}`, UPSTASH_REDIS_REST_URL: undefined });
    onCleanup(async () => {
      await closeKv();
      silentRedis.close();
      restoreEnv();
    });
    return silentRedis;
  })
  // Only a dependency: the route server starts once the silent Redis is the configured one.
  .extend("server", { scope: "file" }, ({ silentRedis: _silentRedis, server }) => server)
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.create", "endpoints.update"]) } }));

describe("with the shared key-value store unreachable", () => {
  it("serves endpoints, and an edit, a disable and a new endpoint show on the next call", async ({ api }) => {
    const created = await api.request("POST", "/endpoints", { name: "Hello", method: "GET", slug: "hello", response: { body: '{"v": 1}' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const first = await api.invoke("hello");
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ v: 1 });

    expect((await api.request("PATCH", `/endpoints/${id}`, { response: { body: '{"v": 2}' } })).status).toBe(200);
    expect(await (await api.invoke("hello")).json()).toEqual({ v: 2 });

    expect((await api.request("PATCH", `/endpoints/${id}`, { enabled: false })).status).toBe(200);
    expect((await api.invoke("hello")).status).toBe(404);

    expect((await api.request("POST", "/endpoints", { name: "New", method: "GET", slug: "new", response: { body: '{"fresh": true}' } })).status).toBe(201);
    const fresh = await api.invoke("new");
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toEqual({ fresh: true });
  });
});
