import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { ProjectRunSlots, type ProjectRunSlotsOptions } from "./project-run-slots";

/** The per-project semaphore, its leases and their Lua, against real Redis (runs when REDIS_URL is set). */
const redisUrl = getConfig().REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

suite("project run slots", () => {
  let redis: Redis;
  const keyPrefix = `test-slots-${randomUUID()}:`;
  const opened: ProjectRunSlots[] = [];

  /** One worker's slots; every test's workers share the Redis semaphore, as separate processes would. */
  function worker(options: Omit<ProjectRunSlotsOptions, "redis" | "keyPrefix">): ProjectRunSlots {
    const slots = new ProjectRunSlots({ redis, keyPrefix, ...options });
    opened.push(slots);
    return slots;
  }

  const slotMembers = (projectId: string) => redis.zrange(`${keyPrefix}slots:${projectId}`, 0, -1);

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((slots) => slots.close()));
  });

  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("grants at most `limit` slots per project across workers", async () => {
    const first = worker({ limit: 2 });
    const second = worker({ limit: 2 });
    const a = await first.tryTake("prj_a");
    const b = await second.tryTake("prj_a");
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(await first.tryTake("prj_a")).toBeNull();
    expect(await second.tryTake("prj_a")).toBeNull();
    // Another project has slots of its own.
    expect(await second.tryTake("prj_b")).not.toBeNull();
    expect(await slotMembers("prj_a")).toHaveLength(2);
  });

  it("hands a slot from run to run within a worker without giving it back to Redis", async () => {
    const slots = worker({ limit: 1, lingerMs: 1_000 });
    const first = await slots.tryTake("prj_c");
    expect(first).not.toBeNull();
    const [member] = await slotMembers("prj_c");
    // A second run of the project waits; the first one's end hands it the same slot.
    const waiting = slots.take("prj_c", 1_000, 1_000);
    await sleep(20);
    slots.give(first!);
    const second = await waiting;
    expect(second?.member).toBe(member);
    // Given back with nobody waiting, the slot is kept a moment for the next run: still no Redis call.
    slots.give(second!);
    const third = await slots.tryTake("prj_c");
    expect(third?.member).toBe(member);
    expect(await slotMembers("prj_c")).toEqual([member]);
  });

  it("gives a slot no run wants back to Redis once it has lingered, and one kept too long to the other workers", async () => {
    const keeper = worker({ limit: 1, lingerMs: 30, handoffLimitMs: 100 });
    const other = worker({ limit: 1 });
    const slot = await keeper.tryTake("prj_d");
    keeper.give(slot!);
    expect(await other.tryTake("prj_d")).toBeNull();
    await sleep(80);
    expect(keeper.heldCount("prj_d")).toBe(0);
    expect(await slotMembers("prj_d")).toEqual([]);
    const taken = await other.tryTake("prj_d");
    expect(taken).not.toBeNull();
    other.give(taken!);

    // A worker whose runs keep wanting the slot hands it on only until its hand-off limit.
    const busy = worker({ limit: 1, lingerMs: 1_000, handoffLimitMs: 100 });
    const held = await busy.take("prj_e", 100, 10);
    expect(held).not.toBeNull();
    await sleep(120);
    const next = busy.take("prj_e", 500, 10);
    await sleep(10);
    busy.give(held!);
    // The waiting run got a slot, but a new one: the old one went back to Redis first.
    const fresh = await next;
    expect(fresh).not.toBeNull();
    expect(fresh!.member).not.toBe(held!.member);
  });

  it("frees the slots of a worker that died once their lease lapses, and renews the slots of one that lives", async () => {
    const dead = worker({ limit: 1, leaseTtlMs: 300 });
    const alive = worker({ limit: 1, leaseTtlMs: 300 });
    expect(await dead.tryTake("prj_f")).not.toBeNull();
    dead.abandon();
    expect(await alive.tryTake("prj_f")).toBeNull();
    await sleep(400);
    const slot = await alive.tryTake("prj_f");
    expect(slot).not.toBeNull();
    // Held past several lease periods: still its, because it is renewed.
    await sleep(700);
    expect(await worker({ limit: 1 }).tryTake("prj_f")).toBeNull();
    expect(await slotMembers("prj_f")).toEqual([slot!.member]);
  });

  it("gives every held slot back when the worker closes", async () => {
    const slots = worker({ limit: 3, lingerMs: 10_000 });
    const taken = await Promise.all([slots.tryTake("prj_g"), slots.tryTake("prj_g")]);
    slots.give(taken[0]!);
    expect(await slotMembers("prj_g")).toHaveLength(2);
    await slots.close();
    expect(await slotMembers("prj_g")).toEqual([]);
  });
});
