import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closeKv } from "@/lib/kv/get-kv";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

/**
 * The shared key-value store is down (a Redis that accepts connections and never answers): the
 * instance keeps serving, and a change made through it is visible to its very next call, although
 * the generation bump in the shared store is lost.
 */
let silentRedis: Server;
let server: RouteServer;
let fixture: ProjectFixture;
let manageKey: string;
let api: ProjectApi;
const saved = { REDIS_URL: process.env.REDIS_URL, UPSTASH_REDIS_REST_URL: process.env.UPSTASH_REDIS_REST_URL };

beforeAll(async () => {
  silentRedis = createServer((socket) => socket.on("error", () => undefined));
  await new Promise<void>((resolve) => silentRedis.listen(0, "127.0.0.1", resolve));
  await closeKv();
  process.env.REDIS_URL = `redis://127.0.0.1:${(silentRedis.address() as AddressInfo).port}`;
  delete process.env.UPSTASH_REDIS_REST_URL;
  resetConfigForTests();
  server = await startRouteServer();
  fixture = await createProjectFixture("Kv outage");
  manageKey = await fixture.keyFor(["endpoints.create", "endpoints.update"]);
  api = projectApi(server, fixture, { key: manageKey });
});

afterAll(async () => {
  await server?.close();
  await closeKv();
  await closePlatformDb();
  silentRedis.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
});

describe("with the shared key-value store unreachable", () => {
  it("serves endpoints, and an edit, a disable and a new endpoint show on the next call", async () => {
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
