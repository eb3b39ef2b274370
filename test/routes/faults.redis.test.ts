import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closeKv } from "@/lib/kv/get-kv";
import { closePlatformDb } from "@/lib/platform-db/client";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { sleep, startPrivateRedis, type PrivateRedis } from "@/test/support/fault-processes";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

/**
 * Faults of the shared key-value tier (security issue 9, item 10) against a real redis-server of
 * this file's own: `SIGSTOP`ped mid-traffic (it keeps its sockets and answers nothing) and killed,
 * then resumed / restarted on the same port. Documented policy (lib/kv/README.md, SECURITY.md):
 * every kv call is raced against 500 ms and the backend is skipped for 1 s after a failure, so
 * invocations keep answering; public rate limits fail open; the response cache is skipped (the flow
 * runs); an edit shows on the instance that made it. Once Redis answers again, limits count again.
 *
 * Latency bound asserted per answer: 5 s. One call makes at most a few kv round trips in series
 * (generation, rate limit, cache read, cache write), each cut at 500 ms, and the 1 s cool-down
 * makes most of them skip the backend at once (observed: about 0.5 s for the slowest answer);
 * 5 s leaves room for a loaded 2-core CI machine.
 *
 * The same 500 ms race also applies to a healthy Redis on a stalled machine: a call cut by it is
 * allowed and not counted. So "limits count" is asserted as: nothing is refused before the limit,
 * and a refusal comes within a few calls past it — never an exact call number.
 */
const ANSWER_BOUND_MS = 5_000;
/**
 * The calls already in flight at the moment of the SIGSTOP: usually about 0.5 s, but on a loaded
 * machine all ten were seen finishing together after 3.4-5.8 s, their 500 ms kv race having fired
 * late (a stall of the whole test process, not of the guard's logic); bounded, generously.
 */
const IN_FLIGHT_BOUND_MS = 10_000;
const PUBLIC_LIMIT = 60;

let redis: PrivateRedis;
let server: RouteServer;
let fixture: ProjectFixture;
let manageKey: string;
let api: ProjectApi;
const saved = { REDIS_URL: process.env.REDIS_URL, UPSTASH_REDIS_REST_URL: process.env.UPSTASH_REDIS_REST_URL, KV_KEY_PREFIX: process.env.KV_KEY_PREFIX };

beforeAll(async () => {
  redis = await startPrivateRedis();
  await closeKv();
  process.env.REDIS_URL = redis.url;
  delete process.env.UPSTASH_REDIS_REST_URL;
  delete process.env.KV_KEY_PREFIX;
  resetConfigForTests();
  server = await startRouteServer();
  fixture = await createProjectFixture("Redis faults");
  manageKey = await fixture.keyFor(["endpoints.create", "endpoints.update"]);
  api = projectApi(server, fixture, { key: manageKey });
});

afterAll(async () => {
  // Our own redis-server only, by its pid: resumed first so that SIGTERM can be handled.
  await redis?.dispose();
  await server?.close();
  await closeKv();
  await closePlatformDb();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
});

async function createEndpoint(slug: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await api.request("POST", "/endpoints", { name: slug, method: "GET", slug, auth: "public", response: { body: '{"slug": "' + slug + '"}' }, ...extra });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

interface Timed {
  status: number;
  ms: number;
  body: string;
  headers: Headers;
}

async function invoke(slug: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/fn/${slug}`);
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, body, headers: response.headers };
}

/** Calls an endpoint `count` times in a row; answers every status and the slowest answer. */
async function burst(slug: string, count: number): Promise<{ statuses: number[]; slowestMs: number }> {
  const statuses: number[] = [];
  let slowestMs = 0;
  for (let i = 0; i < count; i++) {
    const answer = await invoke(slug);
    statuses.push(answer.status);
    slowestMs = Math.max(slowestMs, answer.ms);
  }
  return { statuses, slowestMs };
}

/** Limits count: a fresh endpoint serves its public limit, then refuses (429 with Retry-After). */
async function expectLimitsCount(slug: string): Promise<void> {
  await createEndpoint(slug);
  const { statuses } = await burst(slug, PUBLIC_LIMIT);
  expect(statuses.every((status) => status === 200)).toBe(true);
  // Calls the 500 ms race cut on a stalled machine were allowed uncounted: allow some slack.
  for (let extra = 0; extra < PUBLIC_LIMIT; extra++) {
    const answer = await invoke(slug);
    if (answer.status === 429) {
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      return;
    }
    expect(answer.status).toBe(200);
  }
  throw new Error(`no call to ${slug} was refused: rate limits do not count`);
}

/** Polls until the kv tier answers again (a cached endpoint hits), or fails after timeoutMs. */
async function waitForCacheHit(slug: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await invoke(slug);
    expect(answer.status).toBe(200);
    if (answer.headers.get("x-cache") === "hit") return;
    if (Date.now() > deadline) throw new Error("the cache did not come back");
    await sleep(200);
  }
}

/** What must hold while Redis cannot answer: bounded answers, limits open, cache skipped, edits visible. */
async function expectDegradedService(tag: string): Promise<void> {
  // A fresh endpoint called past its public limit: every call is served (fail open) and bounded.
  await createEndpoint(`${tag}-open`);
  const open = await burst(`${tag}-open`, PUBLIC_LIMIT + 10);
  expect(open.statuses.every((status) => status === 200)).toBe(true);
  expect(open.slowestMs).toBeLessThan(ANSWER_BOUND_MS);

  // A cached endpoint runs its flow on every call: nothing can be read from or written to the cache.
  for (let i = 0; i < 3; i++) {
    const answer = await invoke("cached");
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
    expect(answer.headers.get("x-cache")).toBe("miss");
    expect(answer.headers.get("x-execution-id")).toMatch(/^exe/);
  }

  // An edit made through this instance shows on its next call, although the shared generation bump is lost.
  const id = await createEndpoint(`${tag}-edited`);
  expect(JSON.parse((await invoke(`${tag}-edited`)).body)).toEqual({ slug: `${tag}-edited` });
  expect((await api.request("PATCH", `/endpoints/${id}`, { response: { body: '{"edited": true}' } })).status).toBe(200);
  const edited = await invoke(`${tag}-edited`);
  expect(edited.ms).toBeLessThan(ANSWER_BOUND_MS);
  expect(JSON.parse(edited.body)).toEqual({ edited: true });
}

describe("Redis faults, against a redis-server of this test's own", () => {
  it("serves normally while Redis answers: limits count, the cache hits", async () => {
    await createEndpoint("cached", { cacheSeconds: 60 });
    expect((await invoke("cached")).headers.get("x-cache")).toBe("miss");
    await waitForCacheHit("cached");
    await expectLimitsCount("before");
  });

  it("SIGSTOP mid-traffic: answers stay bounded, limits fail open, the cache is skipped, edits show", async () => {
    // Traffic in flight when the process freezes must not hang either.
    const inFlight = Array.from({ length: 10 }, () => invoke("cached"));
    redis.pause();
    const during = await Promise.all(inFlight);
    const times = `answer times (ms): ${during.map((answer) => Math.round(answer.ms)).join(", ")}`;
    for (const answer of during) {
      expect(answer.status).toBe(200);
      expect(answer.ms, times).toBeLessThan(IN_FLIGHT_BOUND_MS);
    }
    await expectDegradedService("stopped");
  });

  it("SIGCONT: back to normal, limits count again", async () => {
    redis.resume();
    await waitForCacheHit("cached");
    await expectLimitsCount("resumed");
  });

  it("killed: the same policy; restarted on the same port: recovers", async () => {
    await redis.stop();
    await expectDegradedService("killed");

    await redis.start();
    // ioredis reconnects on its own (backoff up to 2 s); the restarted server is empty.
    await waitForCacheHit("cached");
    await expectLimitsCount("restarted");
  });
});
