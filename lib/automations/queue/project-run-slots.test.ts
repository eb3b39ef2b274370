import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { ProjectRunSlots } from "./project-run-slots";

/** The per-project semaphore's Lua, against real Redis (runs when REDIS_URL is set). */
const redisUrl = getConfig().REDIS_URL;
const suite = redisUrl ? describe : describe.skip;

suite("project run slots", () => {
  let redis: Redis;
  const keyPrefix = `test-slots-${randomUUID()}:`;

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("grants at most `limit` slots per project, and frees one on release", async () => {
    const slots = new ProjectRunSlots({ redis, keyPrefix, limit: 2, slotTtlMs: 60_000 });
    expect(await slots.acquire("prj_a", "job-1", "job-1:1")).toBe("granted");
    expect(await slots.acquire("prj_a", "job-2", "job-2:1")).toBe("granted");
    expect(await slots.acquire("prj_a", "job-3", "job-3:1")).toBe("busy");
    expect(await slots.acquire("prj_b", "job-4", "job-4:1")).toBe("granted");
    await slots.release("prj_a", "job-1", "job-1:1");
    expect(await slots.acquire("prj_a", "job-3", "job-3:1")).toBe("granted");
  });

  it("frees the slots of a worker that died once they expire", async () => {
    const slots = new ProjectRunSlots({ redis, keyPrefix, limit: 1, slotTtlMs: 200 });
    expect(await slots.acquire("prj_c", "expiry-job-1", "expiry-job-1:1")).toBe("granted");
    expect(await slots.acquire("prj_c", "expiry-job-2", "expiry-job-2:1")).toBe("busy");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await slots.acquire("prj_c", "expiry-job-2", "expiry-job-2:1")).toBe("granted");
  });

  it("tells a re-run of an attempt that never finished from a fresh start", async () => {
    const slots = new ProjectRunSlots({ redis, keyPrefix, limit: 1, slotTtlMs: 60_000 });
    expect(await slots.acquire("prj_d", "rerun-job-1", "rerun-job-1:1")).toBe("granted");
    // The worker died without releasing; the same job (same holder) is picked up again.
    expect(await slots.acquire("prj_d", "rerun-job-1", "rerun-job-1:1")).toBe("after interruption");
    await slots.release("prj_d", "rerun-job-1", "rerun-job-1:1");
    // Its retry (the next attempt) is a fresh start.
    expect(await slots.acquire("prj_d", "rerun-job-1", "rerun-job-1:2")).toBe("granted");
  });

  it("gives a slot back when the steps end, and forgets the attempt's start mark once it is logged", async () => {
    const slots = new ProjectRunSlots({ redis, keyPrefix, limit: 1, slotTtlMs: 60_000 });
    expect(await slots.acquire("prj_e", "early-job-1", "early-job-1:1")).toBe("granted");
    await slots.freeSlot("prj_e", "early-job-1");
    // The next run of the project starts while the first one's log is still being written…
    expect(await slots.acquire("prj_e", "early-job-2", "early-job-2:1")).toBe("granted");
    // …and a worker dying in that window still leaves its attempt marked as started.
    expect(await redis.exists(`${keyPrefix}started:early-job-1:1`)).toBe(1);
    slots.forgetAttempt("early-job-1:1");
    slots.forgetAttempt("early-job-2:1");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await redis.exists(`${keyPrefix}started:early-job-1:1`, `${keyPrefix}started:early-job-2:1`)).toBe(0);
  });
});
